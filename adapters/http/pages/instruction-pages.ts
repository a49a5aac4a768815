import type { InstructionPage } from '../../../internal/portal/queries/get-instruction-page';
import type { PortalInstruction } from '../../../internal/portal/portal-page';
import { summaryList } from './components';
import { html, type SafeHtml } from './html';
import { instructionMessagesFor, listOf } from './instruction-messages';
import type { Document } from './layout';
import { formatInstant, formatMoney } from './locale';
import type { RenderContext } from './render-context';

/** Where the page's links go: the instruction's own page, its voucher, the payment page it came from. */
export interface InstructionLinks {
  /** The instruction page (a path). */
  page: string;
  /** Its status as JSON, which the page's script polls. */
  status: string;
  /** CASH: the barcode (same-origin path) and the printable voucher in the page's locale. */
  barcode?: string;
  voucher?: string;
  /** The payment page it was asked from. */
  back: string | null;
}

/**
 * The debtor's page of one payment instruction: while PENDING, "waiting for your payment" and
 * what to pay with (the account, bank, beneficiary, amount and reference, each with a copy
 * button; or the barcode, the reference and the printable voucher). The page polls its status
 * (portal.js) and reloads when it changes: PAID, EXPIRED and CANCELLED each say what happened.
 */
export function instructionDocument(page: InstructionPage, r: RenderContext, links: InstructionLinks): Document {
  const t = instructionMessagesFor(r.locale);
  const { instruction, status } = page;
  const money = (cents: number) => formatMoney(cents, instruction.currency, r.locale);
  const title = t.title[instruction.method];
  const back = links.back ? html`<p><a class="button secondary" href="${links.back}">${t.newInstruction}</a></p>` : '';
  let body: SafeHtml;
  if (status === 'PAID') body = html`${notice('done', t.paidTitle, t.paidText)}${links.back ? html`<p><a href="${links.back}">${r.t.backToPayment}</a></p>` : ''}`;
  else if (status === 'EXPIRED') body = html`${notice('stop', t.expiredTitle[instruction.method], t.expiredText)}${back}`;
  else if (status === 'CANCELLED') body = html`${notice('stop', t.cancelledTitle, t.cancelledText)}${back}`;
  else {
    const details = instruction.method === 'TRANSFER' ? transferDetails(page, r) : cashDetails(page, r, links);
    body = html`${notice('waiting', t.waitingTitle, t.autoRefresh)}${details}${links.back ? html`<p><a href="${links.back}">${r.t.backToPayment}</a></p>` : ''}`;
  }
  const rows: [string, string][] = [[r.t.creditor, page.company.name]];
  if (page.description) rows.push([r.t.description, page.description]);
  rows.push([r.t.status, t.status[status]]);
  if (instruction.amountReceivedCents > 0) rows.push([t.received, money(instruction.amountReceivedCents)]);
  return {
    title,
    company: page.company.name,
    main: html`<div data-instruction-status="${status}" data-status-url="${links.status}">
<h1>${title}</h1>
${summaryList(rows)}
${body}
</div>`,
  };
}

function transferDetails(page: InstructionPage, r: RenderContext): SafeHtml {
  const t = instructionMessagesFor(r.locale);
  const { instruction } = page;
  const transfer = instruction.transfer!;
  const amount = formatMoney(instruction.amountCents, instruction.currency, r.locale);
  return html`<p>${t.transferIntro}</p>
<dl class="summary copyable">
${copyRow(t.account(transfer.accountType), transfer.accountNumber, t, 'account')}
${copyRow(t.bank, transfer.bankName, t, 'bank')}
${copyRow(t.beneficiary, transfer.beneficiary, t, 'beneficiary')}
${copyRow(t.amountToPay, amount, t, 'amount', plainAmount(instruction.amountCents))}
${copyRow(t.reference, instruction.reference, t, 'reference')}
<dt>${t.validUntil}</dt><dd>${formatInstant(instruction.expiresAt, r.locale)}</dd>
</dl>`;
}

function cashDetails(page: InstructionPage, r: RenderContext, links: InstructionLinks): SafeHtml {
  const t = instructionMessagesFor(r.locale);
  const { instruction } = page;
  const cash = instruction.cash!;
  const amount = formatMoney(instruction.amountCents, instruction.currency, r.locale);
  return html`<p>${t.cashIntro(listOf(cash.networks, r.locale))}</p>
<figure class="barcode"><img src="${links.barcode ?? ''}" alt="${t.barcodeAlt(cash.barcodeValue)}" width="320" height="120"></figure>
<dl class="summary copyable">
${copyRow(t.reference, cash.barcodeValue, t, 'reference')}
${copyRow(t.amountToPay, amount, t, 'amount', plainAmount(instruction.amountCents))}
<dt>${t.networks}</dt><dd>${cash.networks.join(', ')}</dd>
<dt>${t.validUntil}</dt><dd>${formatInstant(instruction.expiresAt, r.locale)}</dd>
</dl>
<p><a class="button" href="${links.voucher ?? ''}">${t.printVoucher}</a></p>`;
}

/**
 * A value with its copy button. The button copies `copy` (the amount without its currency sign)
 * and says so in a live region; it is hidden until the script shows it (no script, no button).
 */
function copyRow(label: string, value: string, t: ReturnType<typeof instructionMessagesFor>, id: string, copy = value): SafeHtml {
  return html`<dt id="${id}-label">${label}</dt><dd><span class="copy-value" id="${id}-value">${value}</span> <button type="button" class="copy" data-copy="${copy}" aria-describedby="${id}-label" hidden>${t.copy(label)}</button><span class="copied" role="status" data-copied="${t.copied}"></span></dd>`;
}

/** 1500.5 → "1500.50": what a bank app's amount field takes. */
function plainAmount(cents: number): string {
  return (cents / 100).toFixed(2);
}

function notice(kind: 'done' | 'stop' | 'waiting', title: string, text: string): SafeHtml {
  return html`<section class="notice ${kind}" role="status" aria-labelledby="notice-title"><h2 id="notice-title">${title}</h2><p>${text}</p></section>`;
}

/** On a payment page: the instructions already given and still waiting for money, each with its link. */
export function pendingInstructions(instructions: PortalInstruction[], r: RenderContext, href: (paymentInstructionId: string) => string): SafeHtml {
  if (instructions.length === 0) return html``;
  const t = instructionMessagesFor(r.locale);
  const items = instructions.map(
    (i) => html`<li>${t.pendingItem(i.method, formatMoney(i.amountCents, i.currency, r.locale), formatInstant(i.expiresAt, r.locale))} · <a href="${href(i.paymentInstructionId)}">${t.seeInstruction}</a></li>`,
  );
  // The page reloads when the first of them changes (the money arrived, or it expired).
  const watched = `${href(instructions[0]!.paymentInstructionId)}/status`;
  return html`<section class="notice waiting" role="status" aria-labelledby="pending-title" data-instruction-status="PENDING" data-status-url="${watched}"><h2 id="pending-title">${t.waitingTitle}</h2><p>${t.pendingIntro}</p><ul class="plain">${items}</ul></section>`;
}
