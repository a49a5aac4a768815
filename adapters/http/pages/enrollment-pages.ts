import type { PaymentMethodReference } from '../../../internal/direct-debit/payment-method';
import type { EnrollmentPage } from '../../../internal/direct-debit/queries/get-enrollment-page';
import { cardFields, EMPTY_FORM, errorOf, errorSummary, type FormContext, type FormState, hiddenFields, textField } from './components';
import { html } from './html';
import type { Document } from './layout';
import type { RenderContext } from './payment-pages';

/** The enrollment page: the user's registered methods, then the form (bank account or card). */
export function enrollmentDocument(page: EnrollmentPage, r: RenderContext, form: FormContext, state: FormState = EMPTY_FORM): Document {
  const { t } = r;
  if (page.status === 'EXPIRED') {
    return {
      title: t.enrollExpiredTitle,
      company: page.companyName,
      main: html`<h1>${t.enrollExpiredTitle}</h1><section class="notice stop" role="status"><p>${t.enrollExpiredText(page.companyName)}</p></section>`,
    };
  }
  const type = state.values.type ?? 'BANK_ACCOUNT';
  const typeError = errorOf(state, 'type', t);
  const hasMethods = page.methods.length > 0;
  const makeDefault = state.values.type === undefined ? true : state.values.makeDefault === 'on';
  return {
    title: t.enrollTitle,
    company: page.companyName,
    main: html`<h1>${t.enrollTitle}</h1>
${errorSummary(state, t)}
<p>${t.enrollIntro(page.companyName)}</p>
${hasMethods ? html`<h2>${t.yourMethods}</h2>${methodList(page.methods, r)}` : ''}
<form method="post" action="${form.action}" data-portal-form novalidate>
${hiddenFields(form)}
<fieldset id="type"${typeError ? html` aria-describedby="type-error"` : ''}>
<legend>${t.methodType}</legend>
${typeError ? html`<p class="field-error" id="type-error">${typeError}</p>` : ''}
<div class="choice"><input type="radio" id="type-bank" name="type" value="BANK_ACCOUNT"${type === 'BANK_ACCOUNT' ? html` checked` : ''}><label for="type-bank">${t.bankAccount(page.accountKind)}</label></div>
<div class="choice"><input type="radio" id="type-card" name="type" value="CARD_TOKENIZED"${type === 'CARD_TOKENIZED' ? html` checked` : ''}><label for="type-card">${t.card}</label></div>
</fieldset>
<div data-account-fields>${textField(state, t, 'accountNumber', t.accountNumber(page.accountKind), { hint: t.accountHint(page.accountKind), inputmode: 'numeric' })}</div>
${cardFields(state, t, { cvc: false, marker: 'data-enroll-card-fields', hint: t.cardTokenHint })}
<div class="choice"><input type="checkbox" id="makeDefault" name="makeDefault"${makeDefault ? html` checked` : ''}${hasMethods ? '' : html` aria-describedby="makeDefault-hint"`}><label for="makeDefault">${t.makeDefault}</label></div>
${hasMethods ? '' : html`<p class="hint" id="makeDefault-hint">${t.firstIsDefault}</p>`}
<p><button type="submit">${t.registerButton}</button></p>
</form>`,
  };
}

export function enrolledDocument(companyName: string, method: PaymentMethodReference, r: RenderContext, formUrl: string): Document {
  const { t } = r;
  const reference = method.maskedReference ?? method.type;
  return {
    title: t.enrolledTitle,
    company: companyName,
    main: html`<section class="notice done" role="status" aria-labelledby="enrolled-title"><h1 id="enrolled-title">${t.enrolledTitle}</h1><p>${t.enrolledText(reference, method.isDefault)}</p></section>
<p><a href="${formUrl}">${t.registerAnother}</a></p>`,
  };
}

function methodList(methods: PaymentMethodReference[], r: RenderContext) {
  return html`<ul class="plain">${methods.map((m) => html`<li>${m.maskedReference ?? m.type}${m.isDefault ? html` (${r.t.defaultMark})` : ''}</li>`)}</ul>`;
}
