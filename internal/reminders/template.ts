import type { Currency } from '../shared/currency';
import { type ErrorDetail, InvalidRequestError } from '../shared/errors';
import { formatDate, formatMoney, type Locale } from '../shared/locale';
import type { ReminderChannel } from './reminder-policy';

/** A company's wording of one channel in one locale; `subject` only for email. */
export interface ReminderTemplate {
  companyId: number;
  channel: ReminderChannel;
  locale: Locale;
  subject: string | null;
  body: string;
  updatedAt: Date;
}

export const TEMPLATE_VARIABLES = ['contact.name', 'debt.amount', 'debt.dueDate', 'debt.paymentUrl', 'company.name'] as const;
export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];
export type TemplateValues = Record<TemplateVariable, string>;

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** Every `{{name}}` of the text that is not a known variable, each once. */
export function unknownVariables(text: string): string[] {
  const unknown = new Set<string>();
  for (const m of text.matchAll(PLACEHOLDER)) if (!(TEMPLATE_VARIABLES as readonly string[]).includes(m[1]!)) unknown.add(m[1]!);
  return [...unknown];
}

/** The 400 of a template naming an unknown variable (`field`: `body` or `subject`). */
export function templateProblems(template: { subject?: string | null; body: string }): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  for (const field of ['subject', 'body'] as const) {
    const text = template[field];
    if (typeof text !== 'string') continue;
    const unknown = unknownVariables(text);
    if (unknown.length > 0) {
      problems.push({ field, issue: `unknown variable ${unknown.map((u) => `{{${u}}}`).join(', ')}; known: ${TEMPLATE_VARIABLES.map((v) => `{{${v}}}`).join(', ')}` });
    }
  }
  return problems;
}

export function assertValidTemplate(template: { subject?: string | null; body: string }): void {
  const problems = templateProblems(template);
  if (problems.length > 0) throw new InvalidRequestError(problems.map((p) => `${p.field}: ${p.issue}`).join('; '), problems);
}

/** Fills the variables in; a text with an unknown one never gets here (templates are checked when saved). */
export function fill(text: string, values: TemplateValues, escape: (s: string) => string = (s) => s): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(PLACEHOLDER)) {
    out += escape(text.slice(last, m.index));
    const value = values[m[1] as TemplateVariable];
    out += value === undefined ? escape(m[0]) : escape(value);
    last = m.index! + m[0].length;
  }
  return out + escape(text.slice(last));
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The values of one debt's message, formatted for the locale and the debt's currency. */
export function templateValues(input: {
  contactName: string;
  amountCents: number;
  currency: Currency;
  dueDate: string;
  paymentUrl: string;
  companyName: string;
  locale: Locale;
}): TemplateValues {
  return {
    'contact.name': input.contactName,
    'debt.amount': formatMoney(input.amountCents, input.currency, input.locale),
    'debt.dueDate': formatDate(input.dueDate, input.locale),
    'debt.paymentUrl': input.paymentUrl,
    'company.name': input.companyName,
  };
}

/** One rendered message. Email: subject, the text part (`body`) and the HTML part; texts: body and SMS segments. */
export interface RenderedMessage {
  subject: string | null;
  body: string;
  html: string | null;
  segments: number | null;
}

export function render(template: { channel: ReminderChannel; subject: string | null; body: string }, values: TemplateValues, unsubscribeUrl: string | null): RenderedMessage {
  const body = fill(template.body, values);
  if (template.channel !== 'email') return { subject: null, body, html: null, segments: smsSegments(body) };
  const subject = fill(template.subject ?? '', values).replace(/[\r\n]+/g, ' ');
  return { subject, body, html: emailHtml(template.body, values, unsubscribeUrl), segments: null };
}

/** The HTML part: the same text, every character of template and values escaped, URLs made links, paragraphs kept. */
function emailHtml(templateBody: string, values: TemplateValues, unsubscribeUrl: string | null): string {
  const escaped = fill(templateBody, values, escapeHtml);
  const linked = escaped.replace(/https?:\/\/[^\s<>"']+/g, (url) => `<a href="${url}">${url}</a>`);
  const paragraphs = linked.split(/\n{2,}/).map((p) => `<p>${p.replace(/\n/g, '<br>')}</p>`).join('\n');
  const footer = unsubscribeUrl ? `\n<p style="font-size:12px;color:#666"><a href="${escapeHtml(unsubscribeUrl)}">Unsubscribe / Cancelar suscripción</a></p>` : '';
  return `<!doctype html>\n<html><body>\n${paragraphs}${footer}\n</body></html>\n`;
}

// GSM 03.38: the basic set (1 septet each) and the extension table (2 septets: escape + char).
const GSM_BASIC = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);
const GSM_EXTENSION = new Set('^{}\\[~]|€\f');

/** The encoding an SMS needs: GSM-7 when every character is in the GSM 03.38 tables, else UCS-2. */
export function smsEncoding(text: string): 'GSM-7' | 'UCS-2' {
  for (const c of text) if (!GSM_BASIC.has(c) && !GSM_EXTENSION.has(c)) return 'UCS-2';
  return 'GSM-7';
}

/** Segments the SMS takes: GSM-7 160 septets alone or 153 per part; UCS-2 70 code units alone or 67 per part. */
export function smsSegments(text: string): number {
  if (text.length === 0) return 1;
  if (smsEncoding(text) === 'GSM-7') {
    let septets = 0;
    for (const c of text) septets += GSM_EXTENSION.has(c) ? 2 : 1;
    return septets <= 160 ? 1 : Math.ceil(septets / 153);
  }
  return text.length <= 70 ? 1 : Math.ceil(text.length / 67);
}

/** An SMS template whose message (with long sample values) takes more segments is refused. */
export const MAX_SMS_SEGMENTS = 4;
