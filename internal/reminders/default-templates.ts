import type { Locale } from '../shared/locale';
import type { ReminderChannel } from './reminder-policy';

/** The wording used for a channel and locale the company did not write itself. */
export interface DefaultTemplate {
  subject: string | null;
  body: string;
}

const SPANISH: Record<ReminderChannel, DefaultTemplate> = {
  email: {
    subject: '{{company.name}}: recordatorio de pago por {{debt.amount}}',
    body:
      'Hola {{contact.name}}:\n\nTe recordamos tu pago de {{debt.amount}} a {{company.name}}, con vencimiento el {{debt.dueDate}}.\n\n' +
      'Puedes pagar en linea aqui: {{debt.paymentUrl}}\n\nSi ya pagaste, ignora este mensaje. Gracias.',
  },
  // GSM-7 only (no accented vowels), so a message stays within one or two segments.
  sms: { subject: null, body: '{{company.name}}: tu pago de {{debt.amount}} vence el {{debt.dueDate}}. Paga aqui: {{debt.paymentUrl}}' },
  whatsapp: {
    subject: null,
    body: 'Hola {{contact.name}}, te recordamos tu pago de *{{debt.amount}}* a {{company.name}} con vencimiento el {{debt.dueDate}}. Puedes pagar aquí: {{debt.paymentUrl}}',
  },
};

const ENGLISH: Record<ReminderChannel, DefaultTemplate> = {
  email: {
    subject: '{{company.name}}: payment reminder for {{debt.amount}}',
    body:
      'Hello {{contact.name}},\n\nThis is a reminder of your payment of {{debt.amount}} to {{company.name}}, due on {{debt.dueDate}}.\n\n' +
      'You can pay online here: {{debt.paymentUrl}}\n\nIf you have already paid, please ignore this message. Thank you.',
  },
  sms: { subject: null, body: '{{company.name}}: your payment of {{debt.amount}} is due on {{debt.dueDate}}. Pay here: {{debt.paymentUrl}}' },
  whatsapp: {
    subject: null,
    body: 'Hello {{contact.name}}, this is a reminder of your payment of *{{debt.amount}}* to {{company.name}}, due on {{debt.dueDate}}. Pay here: {{debt.paymentUrl}}',
  },
};

export function defaultTemplate(channel: ReminderChannel, locale: Locale): DefaultTemplate {
  return (locale === 'en-US' ? ENGLISH : SPANISH)[channel];
}
