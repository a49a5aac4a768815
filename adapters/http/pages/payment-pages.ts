import type { PortalCharge } from '../../../internal/portal/portal-charge';
import type { PortalLink, PortalPage } from '../../../internal/portal/portal-page';
import type { PortalDebtor } from '../../../internal/portal/debtor-name';
import type { PortalReceipt } from '../../../internal/portal/queries/get-portal-receipt';
import {
  EMPTY_FORM, errorOf, errorSummary, type FormContext, type FormState, hiddenFields, methodFields, summaryList, textField,
} from './components';
import { html, type SafeHtml } from './html';
import type { Document } from './layout';
import { instructionMessagesFor } from './instruction-messages';
import { pendingInstructions } from './instruction-pages';
import { formatDate, formatInstant, formatMoney, formatShortDate } from './locale';
import type { Messages } from './messages';
import type { RenderContext } from './render-context';

export type { RenderContext } from './render-context';

/** The page of a debt, a link, a link choice or a subscription: its summary, then a form or its state. */
export function portalDocument(page: PortalPage, r: RenderContext, form: FormContext, state: FormState = EMPTY_FORM): Document {
  switch (page.kind) {
    case 'debt':
      return debtDocument(page.charge, page.company.name, page.debtor, r, form, state, pending(page.instructions, r));
    case 'link':
      return linkDocument(page.link, page.charge, page.company.name, page.debtor, r, form, state, pending(page.instructions, r));
    case 'link-choice':
      return choiceDocument(page.links, page.company.name, r, form.action);
    case 'subscription':
      return subscriptionDocument(page, r, form, state);
  }
}

/** The creditor, then the debtor when the charge has one (its name partial on identifier pages). */
function partyRows(company: string, debtor: PortalDebtor | null, t: Messages): [string, string][] {
  return debtor ? [[t.creditor, company], [t.debtor, debtor.name]] : [[t.creditor, company]];
}

/** The payment instructions already given for the charge and still waiting for money. */
function pending(instructions: Extract<PortalPage, { kind: 'debt' }>['instructions'], r: RenderContext): SafeHtml {
  return r.instructionHref ? pendingInstructions(instructions, r, r.instructionHref) : html``;
}

function debtDocument(
  charge: PortalCharge, company: string, debtor: PortalDebtor | null, r: RenderContext, form: FormContext, state: FormState, waiting: SafeHtml,
): Document {
  const { t, locale } = r;
  const money = (cents: number) => formatMoney(cents, charge.currency, locale);
  const rows = partyRows(company, debtor, t);
  if (charge.description) rows.push([t.description, charge.description]);
  rows.push(
    [t.amount, money(charge.amountCents)],
    [t.dueDate, formatDate(charge.dueDate, locale)],
    [t.status, t.debtStatus[charge.status]],
    [t.amountPaid, money(charge.amountPaidCents)],
    [t.remaining, money(charge.remainingCents)],
  );
  const title = charge.description ?? t.payTitle;
  return {
    title,
    company,
    main: html`<h1>${title}</h1>${errorSummary(state, t)}${summaryList(rows)}${waiting}${stateOrForm(charge, [charge], r, form, state)}`,
  };
}

function linkDocument(
  link: PortalLink, charge: PortalCharge, company: string, debtor: PortalDebtor | null, r: RenderContext, form: FormContext, state: FormState, waiting: SafeHtml,
): Document {
  const { t, locale } = r;
  const money = (cents: number) => formatMoney(cents, link.currency, locale);
  const rows: [string, string][] = [...partyRows(company, debtor, t), [t.description, link.description], [t.amount, money(link.amountCents)]];
  if (link.expiresAt) rows.push([t.expiresAt, formatInstant(link.expiresAt, locale)]);
  rows.push([t.status, t.linkStatus[link.status]]);
  if (link.singleUse) rows.push([t.amountPaid, money(charge.amountPaidCents)], [t.remaining, money(charge.remainingCents)]);
  else rows.push([t.paymentsReceived, String(link.paymentsCount)]);
  return {
    title: link.description,
    company,
    main: html`<h1>${link.description}</h1>${errorSummary(state, t)}${summaryList(rows)}${link.singleUse ? '' : html`<p>${t.reusableNote}</p>`}${waiting}${stateOrForm(charge, [charge], r, form, state)}`,
  };
}

function choiceDocument(links: PortalLink[], company: string, r: RenderContext, action: string): Document {
  const { t, locale } = r;
  const items = links.map(
    (l) => html`<li><a href="${action}/${encodeURIComponent(l.paymentLinkId)}">${l.description}</a> · ${formatMoney(l.amountCents, l.currency, locale)}${l.expiresAt ? html` · ${t.expiresAt}: ${formatInstant(l.expiresAt, locale)}` : ''}</li>`,
  );
  return { title: t.chooseTitle, company, main: html`<h1>${t.chooseTitle}</h1><p>${t.chooseIntro}</p><ul class="plain">${items}</ul>` };
}

function subscriptionDocument(page: Extract<PortalPage, { kind: 'subscription' }>, r: RenderContext, form: FormContext, state: FormState): Document {
  const { t, locale } = r;
  const { subscription, cycles } = page;
  const money = (cents: number) => formatMoney(cents, subscription.currency, locale);
  const title = subscription.description ?? t.subscriptionTitle;
  const rows = partyRows(page.company.name, page.debtor, t);
  if (subscription.description) rows.push([t.description, subscription.description]);
  rows.push([t.amount, money(subscription.amountCents)], [t.status, t.subscriptionStatus[subscription.status]]);
  const table = cycles.length
    ? html`<div class="table-scroll" role="region" aria-labelledby="cycles-caption" tabindex="0"><table class="cycles">
<caption id="cycles-caption">${t.cycles}</caption>
<thead><tr><th scope="col">${t.cycle}</th><th scope="col">${t.dueDate}</th><th scope="col" class="num wide">${t.amount}</th><th scope="col" class="num wide">${t.amountPaid}</th><th scope="col" class="num">${t.remaining}</th><th scope="col">${t.status}</th></tr></thead>
<tbody>${cycles.map((c, i) => html`<tr><th scope="row">${i + 1}</th><td>${formatShortDate(c.dueDate, locale)}</td><td class="num wide">${money(c.amountCents)}</td><td class="num wide">${money(c.amountPaidCents)}</td><td class="num">${money(c.remainingCents)}</td><td>${t.debtStatus[c.status]}</td></tr>`)}</tbody>
</table></div>`
    : '';
  const payable = cycles.filter((c) => c.payability.payable);
  let body: SafeHtml;
  const stopped = subscription.status === 'CANCELLED' || subscription.status === 'PAUSED' ? t.subscriptionStopped[subscription.status] : null;
  if (payable.length > 0) body = paymentForm(payable, cycles, r, form, state);
  else if (stopped) body = notice('stop', stopped[0], stopped[1]);
  else if (cycles.length === 0) body = notice('stop', t.subscriptionTitle, t.subscriptionNoCycles);
  else if (cycles.every((c) => c.status === 'PAID')) body = notice('done', t.notPayableTitle.PAID, t.subscriptionDone);
  else {
    const first = cycles.find((c) => c.status !== 'PAID')!;
    body = notPayable(first, r);
  }
  return { title, company: page.company.name, main: html`<h1>${title}</h1>${errorSummary(state, t)}${summaryList(rows)}${table}${pending(page.instructions, r)}${body}` };
}

function stateOrForm(charge: PortalCharge, all: PortalCharge[], r: RenderContext, form: FormContext, state: FormState): SafeHtml {
  return charge.payability.payable ? paymentForm([charge], all, r, form, state) : notPayable(charge, r);
}

function notPayable(charge: PortalCharge, r: RenderContext): SafeHtml {
  if (charge.payability.payable) return html``;
  const { reason } = charge.payability;
  return notice(reason === 'PAID' || reason === 'LINK_PAID' ? 'done' : 'stop', r.t.notPayableTitle[reason], r.t.notPayableText[reason]);
}

function notice(kind: 'done' | 'stop', title: string, text: string): SafeHtml {
  return html`<section class="notice ${kind}" role="status" aria-labelledby="notice-title"><h2 id="notice-title">${title}</h2><p>${text}</p></section>`;
}

/** The form: which cycle (subscriptions), how much (when partial payments are allowed), how. */
function paymentForm(payable: PortalCharge[], all: PortalCharge[], r: RenderContext, form: FormContext, state: FormState): SafeHtml {
  const { t, locale } = r;
  const first = payable[0]!;
  if (!first.payability.payable) return html``;
  const money = (cents: number) => formatMoney(cents, first.currency, locale);
  const isCycle = all.length > 1 || payable.length > 1 || state.values.cycle !== undefined;
  const cycleError = errorOf(state, 'cycle', t);
  const cycleChoice = !isCycle
    ? ''
    : payable.length === 1
      ? html`<input type="hidden" name="cycle" value="${first.debtId}"><p>${t.nextCycle(formatDate(first.dueDate, locale))}</p>`
      : html`<fieldset id="cycle"><legend>${t.cycleToPay}</legend>${cycleError ? html`<p class="field-error">${cycleError}</p>` : ''}${payable.map((c) => {
          const checked = (state.values.cycle ?? first.debtId) === c.debtId;
          const n = all.indexOf(c) + 1;
          return html`<div class="choice"><input type="radio" id="cycle-${n}" name="cycle" value="${c.debtId}"${checked ? html` checked` : ''}><label for="cycle-${n}">${t.cycleNumber(n)} · ${formatDate(c.dueDate, locale)} · ${money(c.remainingCents)}</label></div>`;
        })}</fieldset>`;
  const partial = first.payability.partial;
  const amountError = errorOf(state, 'amount', t);
  const choosingOther = state.values.amountChoice === 'partial' || amountError !== undefined;
  const amount = partial
    ? html`<fieldset id="amountChoice"><legend>${t.howMuch}</legend>
<div class="choice"><input type="radio" id="amount-full" name="amountChoice" value="full"${choosingOther ? '' : html` checked`}><label for="amount-full">${t.payFull(payable.length > 1 ? null : money(first.remainingCents))}</label></div>
<div class="choice"><input type="radio" id="amount-partial" name="amountChoice" value="partial"${choosingOther ? html` checked` : ''}><label for="amount-partial">${t.payOther}</label></div>
<div data-amount-field>${textField(state, t, 'amount', t.otherAmount, { hint: t.otherAmountHint(money(first.remainingCents)), inputmode: 'decimal' })}</div>
</fieldset>`
    : html`<p class="amount-due">${t.remaining}: ${money(first.remainingCents)}</p>`;
  return html`<form method="post" action="${form.action}" data-portal-form novalidate>
${hiddenFields(form)}
${cycleChoice}
${amount}
${methodFields(state, first.payability.methods, t, instructionMessagesFor(locale).methodHint)}
<button type="submit">${t.payButton}</button>
</form>`;
}

/** The receipt of a portal payment, with the way back to what is left to pay. */
export function receiptDocument(receipt: PortalReceipt, r: RenderContext, backUrl: string | null): Document {
  const { t, locale } = r;
  const money = (cents: number) => formatMoney(cents, receipt.currency, locale);
  const rows: [string, string][] = [[t.receiptNumber, receipt.code], [t.creditor, receipt.company.name]];
  if (receipt.description) rows.push([t.description, receipt.description]);
  rows.push(
    [t.amountPaid, money(receipt.amountCents)],
    [t.method, t.methods[receipt.method]],
    [t.paidAt, formatInstant(receipt.paidAt, locale)],
    [t.reference, receipt.processorReference],
    [t.remaining, money(receipt.debt.remainingCents)],
  );
  const more = receipt.debt.remainingCents > 0 && receipt.debt.payability.payable;
  return {
    title: t.receiptTitle,
    company: receipt.company.name,
    main: html`<section class="notice done" role="status" aria-labelledby="receipt-title"><h1 id="receipt-title">${t.receiptTitle}</h1><p>${t.receiptIntro}</p></section>
${summaryList(rows)}
${backUrl ? html`<p><a class="${more ? 'button' : ''}" href="${backUrl}">${more ? t.payRest : t.backToPayment}</a></p>` : ''}`,
  };
}

/** A page that only says something (not found, too many attempts, form expired, unavailable). */
export function messageDocument(title: string, text: string, link?: { href: string; label: string }): Document {
  return {
    title,
    main: html`<h1>${title}</h1><p>${text}</p>${link ? html`<p><a href="${link.href}">${link.label}</a></p>` : ''}`,
  };
}
