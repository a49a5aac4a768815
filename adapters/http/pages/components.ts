import type { PaymentMethod } from '../../../internal/debts/debt';
import { html, SafeHtml } from './html';
import type { Messages } from './messages';

/** What a form shows again after a refusal: the values sent and the problems found. */
export interface FormState {
  values: Record<string, string>;
  /** By field (`amount`, `cardNumber`, …), in the order shown; `issue` is the fallback text. */
  errors: { field: string; issue: string }[];
  /** A problem with the whole submission (declined, refused), in the page's language. */
  banner?: (t: Messages) => string;
}

export const EMPTY_FORM: FormState = { values: {}, errors: [] };

export interface FormContext {
  action: string;
  csrf: string;
  submission: string;
}

export function summaryList(rows: [string, string | SafeHtml][]): SafeHtml {
  return html`<dl class="summary">${rows.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>`;
}

export function errorSummary(state: FormState, t: Messages): SafeHtml {
  if (state.errors.length === 0 && !state.banner) return html``;
  return html`<div class="error-summary" role="alert" tabindex="-1" aria-labelledby="error-summary-title">
<h2 id="error-summary-title">${t.errorSummary}</h2>
${state.banner ? html`<p>${state.banner(t)}</p>` : ''}
${state.errors.length ? html`<ul>${state.errors.map((e) => html`<li><a href="#${e.field}">${messageOf(e, t)}</a></li>`)}</ul>` : ''}
</div>`;
}

export function errorOf(state: FormState, field: string, t: Messages): string | undefined {
  const error = state.errors.find((e) => e.field === field);
  return error && messageOf(error, t);
}

function messageOf(error: { field: string; issue: string }, t: Messages): string {
  return t.fieldErrors[error.field] ?? error.issue;
}

/** A labelled text input with its hint and error wired to it (aria-describedby, aria-invalid). */
export function textField(
  state: FormState,
  t: Messages,
  field: string,
  label: string,
  options: { hint?: string; inputmode?: string; autocomplete?: string; value?: string; required?: boolean } = {},
): SafeHtml {
  const error = errorOf(state, field, t);
  const described = [options.hint ? `${field}-hint` : '', error ? `${field}-error` : ''].filter(Boolean).join(' ');
  return html`<label for="${field}">${label}</label>
${options.hint ? html`<p class="hint" id="${field}-hint">${options.hint}</p>` : ''}
${error ? html`<p class="field-error" id="${field}-error">${error}</p>` : ''}
<input type="text" id="${field}" name="${field}" value="${state.values[field] ?? options.value ?? ''}" inputmode="${options.inputmode ?? 'text'}" autocomplete="${options.autocomplete ?? 'off'}"${described ? html` aria-describedby="${described}"` : ''}${error ? html` aria-invalid="true"` : ''}${options.required ? html` required` : ''}>`;
}

export function hiddenFields(form: FormContext): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${form.csrf}"><input type="hidden" name="submission" value="${form.submission}">`;
}

/**
 * The payment method radios (a hint under the ones that need one), then the card fields, shown
 * only while CARD is chosen (by the style sheet, and by the script where :has() is missing).
 */
export function methodFields(state: FormState, methods: PaymentMethod[], t: Messages, hints: Partial<Record<PaymentMethod, string>> = {}): SafeHtml {
  const chosen = state.values.method ?? methods[0];
  const error = errorOf(state, 'method', t);
  return html`<fieldset id="method"${error ? html` aria-describedby="method-error"` : ''}>
<legend>${t.method}</legend>
${error ? html`<p class="field-error" id="method-error">${error}</p>` : ''}
${methods.map((m) => {
  const hint = hints[m];
  return html`<div class="choice"><input type="radio" id="method-${m}" name="method" value="${m}"${m === chosen ? html` checked` : ''}${hint ? html` aria-describedby="method-${m}-hint"` : ''}><div><label for="method-${m}">${t.methods[m]}</label>${hint ? html`<p class="hint" id="method-${m}-hint">${hint}</p>` : ''}</div></div>`;
})}
</fieldset>
${methods.includes('CARD') ? cardFields(state, t, { cvc: true, marker: 'data-card-fields' }) : ''}`;
}

export function cardFields(state: FormState, t: Messages, options: { cvc: boolean; marker: 'data-card-fields' | 'data-enroll-card-fields'; hint?: string }): SafeHtml {
  return html`<fieldset ${new SafeHtml(options.marker)}>
<legend>${t.cardDetails}</legend>
<p class="hint">${options.hint ?? t.cardOnlyHint}</p>
${textField(state, t, 'cardNumber', t.cardNumber, { inputmode: 'numeric', autocomplete: 'cc-number' })}
${textField(state, t, 'cardExpiry', t.cardExpiry, { hint: t.cardExpiryHint, inputmode: 'numeric', autocomplete: 'cc-exp' })}
${options.cvc ? textField(state, t, 'cardCvc', t.cardCvc, { inputmode: 'numeric', autocomplete: 'cc-csc' }) : ''}
</fieldset>`;
}
