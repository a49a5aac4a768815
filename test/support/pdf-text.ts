import zlib from 'node:zlib';

/**
 * The text a pdfkit document shows, for tests (no PDF library needed): its content streams are
 * inflated and the hex strings of each TJ/Tj operator decoded (the standard fonts' WinAnsi is
 * Latin-1 for every letter a voucher uses), one line per operator.
 */
export function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const lines: string[] = [];
  for (const match of raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    let content: string;
    try {
      content = zlib.inflateSync(Buffer.from(match[1]!, 'latin1')).toString('latin1');
    } catch {
      continue; // an image, or a stream that is not deflated text
    }
    for (const op of content.matchAll(/\[([^\]]*)\]\s*TJ|(<[0-9a-fA-F]*>)\s*Tj/g)) {
      const parts = [...(op[1] ?? op[2] ?? '').matchAll(/<([0-9a-fA-F]*)>/g)].map((p) => Buffer.from(p[1]!, 'hex').toString('latin1'));
      lines.push(parts.join(''));
    }
  }
  return lines.join('\n');
}

/** The document's Title (pdfkit writes it in UTF-16BE with a byte order mark). */
export function pdfTitle(pdf: Buffer): string | null {
  const raw = pdf.toString('latin1');
  const ref = /\/Title (\d+) 0 R/.exec(raw);
  const object = ref && new RegExp(`\\n${ref[1]} 0 obj\\n\\(([\\s\\S]*?)\\)\\nendobj`).exec(raw);
  if (!object) return null;
  const bytes = Buffer.from(object[1]!.replace(/\\([()\\])/g, '$1'), 'latin1');
  if (bytes[0] !== 0xfe || bytes[1] !== 0xff) return bytes.toString('latin1');
  const swapped = Buffer.from(bytes.subarray(2));
  swapped.swap16();
  return swapped.toString('utf16le');
}
