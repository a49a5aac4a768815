import bwipjs from 'bwip-js';
import PDFDocument from 'pdfkit';
import { formatInstant, formatMoney, type Locale } from './locale';
import { instructionMessagesFor, listOf } from './instruction-messages';

/** The barcode of a cash voucher: Code 128, the value printed under it. */
export function barcodeSvg(value: string): string {
  return bwipjs.toSVG({ bcid: 'code128', text: value, height: 14, includetext: true, textxalign: 'center', paddingwidth: 6, paddingheight: 4 });
}

export interface VoucherContent {
  company: string;
  description: string | null;
  amountCents: number;
  currency: Parameters<typeof formatMoney>[1];
  barcodeValue: string;
  networks: string[];
  expiresAt: Date;
  /** Outside production: says that no real money moves. */
  sandbox: boolean;
}

/**
 * The printable voucher (A4 PDF, pdfkit's built-in Helvetica: every Spanish letter is in it), in
 * the page's locale: who is paid and for what, the amount, the barcode and its reference, until
 * when, where and how to pay. It shows nothing else of the debt or the debtor.
 */
export async function voucherPdf(content: VoucherContent, locale: Locale): Promise<Buffer> {
  const t = instructionMessagesFor(locale);
  const barcode = await bwipjs.toBuffer({ bcid: 'code128', text: content.barcodeValue, scale: 3, height: 14, includetext: true, textxalign: 'center' });
  const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: `${t.voucherTitle} · ${content.company}`, Author: content.company } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  // The standard fonts are WinAnsi: a narrow no-break space (Intl's es-* grouping) becomes a plain one.
  const text = (s: string) => s.replace(/[\u202f\u2009]/g, ' ');
  const width = doc.page.width - 112;

  doc.font('Helvetica-Bold').fontSize(20).fillColor('#1a1a1a').text(text(t.voucherTitle));
  doc.moveDown(0.3).font('Helvetica').fontSize(12).fillColor('#3c4043').text(text(t.voucherFor(content.company)));
  if (content.description) doc.text(text(content.description));
  doc.moveDown(1).font('Helvetica').fontSize(11).fillColor('#3c4043').text(text(t.amountToPay));
  doc.font('Helvetica-Bold').fontSize(26).fillColor('#1a1a1a').text(text(formatMoney(content.amountCents, content.currency, locale)));
  doc.moveDown(1);
  doc.image(barcode, { fit: [width, 110], align: 'center' });
  doc.moveDown(0.5).font('Helvetica').fontSize(11).fillColor('#3c4043').text(text(t.reference), { continued: true }).font('Helvetica-Bold').fillColor('#1a1a1a').text(`  ${content.barcodeValue}`);
  doc.font('Helvetica').fillColor('#3c4043').text(text(t.validUntil), { continued: true }).font('Helvetica-Bold').fillColor('#1a1a1a').text(`  ${text(formatInstant(content.expiresAt, locale))}`);
  doc.font('Helvetica').fillColor('#3c4043').text(text(t.networks), { continued: true }).font('Helvetica-Bold').fillColor('#1a1a1a').text(`  ${text(content.networks.join(', '))}`);
  doc.moveDown(1.2).font('Helvetica').fontSize(11).fillColor('#1a1a1a');
  t.voucherSteps(listOf(content.networks, locale)).forEach((step, i) => doc.text(text(`${i + 1}. ${step}`), { paragraphGap: 4 }));
  doc.moveDown(1).fontSize(9).fillColor('#4a4f54').text(text(t.voucherNotice));
  if (content.sandbox) doc.moveDown(0.3).text(text(t.sandboxNotice));
  doc.end();
  return done;
}
