import type { DebtStatus, PaymentMethod } from '../../../internal/debts/debt';
import type { BankAccountKind } from '../../../internal/direct-debit/bank-account';
import type { NotPayableReason } from '../../../internal/portal/portal-charge';
import type { PaymentLinkStatus } from '../../../internal/payment-links/payment-link';
import type { SubscriptionStatus } from '../../../internal/subscriptions/subscription';
import type { Locale } from './locale';

/** Every text of the hosted pages, in Spanish (all es-* locales) and English (en-US). */
export interface Messages {
  skipToContent: string;
  securePayment: string;
  sandboxNotice: string;
  payTitle: string;
  subscriptionTitle: string;
  linkTitle: string;
  chooseTitle: string;
  chooseIntro: string;
  creditor: string;
  /** The debtor's name row (partial on pages found by a public identifier). */
  debtor: string;
  description: string;
  amount: string;
  dueDate: string;
  expiresAt: string;
  status: string;
  amountPaid: string;
  remaining: string;
  paymentsReceived: string;
  reusableNote: string;
  payFull(amount: string | null): string;
  payOther: string;
  otherAmount: string;
  otherAmountHint(max: string): string;
  howMuch: string;
  method: string;
  methods: Record<PaymentMethod, string>;
  cardDetails: string;
  cardOnlyHint: string;
  cardNumber: string;
  cardExpiry: string;
  cardExpiryHint: string;
  cardCvc: string;
  payButton: string;
  cycles: string;
  cycle: string;
  cycleNumber(n: number): string;
  cycleToPay: string;
  nextCycle(due: string): string;
  debtStatus: Record<DebtStatus, string>;
  linkStatus: Record<PaymentLinkStatus, string>;
  subscriptionStatus: Record<SubscriptionStatus, string>;
  notPayableTitle: Record<NotPayableReason, string>;
  notPayableText: Record<NotPayableReason, string>;
  subscriptionDone: string;
  subscriptionNoCycles: string;
  subscriptionStopped: Record<'CANCELLED' | 'PAUSED', [string, string]>;
  errorSummary: string;
  fieldErrors: Record<string, string>;
  declined(reason: string): string;
  ruleRefused: string;
  receiptTitle: string;
  receiptIntro: string;
  receiptNumber: string;
  paidAt: string;
  reference: string;
  backToPayment: string;
  payRest: string;
  notFoundTitle: string;
  notFoundText: string;
  tooManyTitle: string;
  tooManyText(seconds: number): string;
  formExpiredTitle: string;
  formExpiredText: string;
  reload: string;
  unavailableTitle: string;
  unavailableText: string;
  errorTitle: string;
  errorText: string;
  enrollTitle: string;
  enrollIntro(company: string): string;
  enrollExpiredTitle: string;
  enrollExpiredText(company: string): string;
  yourMethods: string;
  defaultMark: string;
  methodType: string;
  bankAccount(kind: BankAccountKind): string;
  card: string;
  accountNumber(kind: BankAccountKind): string;
  accountHint(kind: BankAccountKind): string;
  cardTokenHint: string;
  makeDefault: string;
  firstIsDefault: string;
  registerButton: string;
  enrolledTitle: string;
  enrolledText(reference: string, isDefault: boolean): string;
  registerAnother: string;
}

const ACCOUNT_DIGITS: Record<BankAccountKind, string> = { CLABE: '18', CBU: '22', CCI: '20', ACCOUNT: '6-20' };

const es: Messages = {
  skipToContent: 'Saltar al contenido',
  securePayment: 'Pago seguro',
  sandboxNotice: 'Entorno de pruebas: no se mueve dinero real.',
  payTitle: 'Pagar tu cuenta',
  subscriptionTitle: 'Pagos de tu suscripción',
  linkTitle: 'Pagar',
  chooseTitle: 'Elige qué pagar',
  chooseIntro: 'Hay varios pagos pendientes con este enlace. Elige uno.',
  creditor: 'Empresa',
  debtor: 'A nombre de',
  description: 'Concepto',
  amount: 'Importe',
  dueDate: 'Vencimiento',
  expiresAt: 'Vigente hasta',
  status: 'Estado',
  amountPaid: 'Pagado',
  remaining: 'Por pagar',
  paymentsReceived: 'Pagos recibidos',
  reusableNote: 'Este enlace admite varios pagos del mismo importe.',
  payFull: (amount) => (amount ? `Pagar el total pendiente (${amount})` : 'Pagar el total pendiente de la cuota'),
  payOther: 'Pagar otro importe',
  otherAmount: 'Importe a pagar',
  otherAmountHint: (max) => `Hasta ${max}. Ejemplo: 150,00`,
  howMuch: '¿Cuánto quieres pagar?',
  method: 'Medio de pago',
  methods: { CARD: 'Tarjeta', TRANSFER: 'Transferencia', BANK_TRANSFER: 'Transferencia bancaria', WALLET: 'Billetera digital', CASH: 'Efectivo' },
  cardDetails: 'Datos de la tarjeta',
  cardOnlyHint: 'Solo si pagas con tarjeta.',
  cardNumber: 'Número de tarjeta',
  cardExpiry: 'Vencimiento (MM/AA)',
  cardExpiryHint: 'Ejemplo: 08/29',
  cardCvc: 'Código de seguridad (CVC)',
  payButton: 'Pagar',
  cycles: 'Cuotas',
  cycle: 'Cuota',
  cycleNumber: (n) => `Cuota ${n}`,
  cycleToPay: 'Cuota a pagar',
  nextCycle: (due) => `Próxima cuota a pagar: vence el ${due}.`,
  debtStatus: { PENDING: 'Pendiente', PARTIALLY_PAID: 'Pagada en parte', PAID: 'Pagada', OVERDUE: 'Vencida', CANCELLED: 'Cancelada' },
  linkStatus: { ACTIVE: 'Activo', PAID: 'Pagado', EXPIRED: 'Vencido', CANCELLED: 'Cancelado' },
  subscriptionStatus: { ACTIVE: 'Activa', PAUSED: 'En pausa', ENDED: 'Finalizada', CANCELLED: 'Cancelada' },
  notPayableTitle: {
    PAID: 'Esta cuenta ya está pagada',
    CANCELLED: 'Este cobro fue cancelado',
    LINK_EXPIRED: 'Este enlace de pago venció',
    LINK_CANCELLED: 'Este enlace de pago fue cancelado',
    LINK_PAID: 'Este enlace de pago ya fue pagado',
    OVERDUE_NOT_ALLOWED: 'Este cobro venció',
    EARLIER_CYCLE_UNPAID: 'Primero paga las cuotas anteriores',
    NO_ONLINE_METHOD: 'Este cobro no se paga en línea',
  },
  notPayableText: {
    PAID: 'No tienes nada pendiente. Gracias.',
    CANCELLED: 'La empresa canceló este cobro. No tienes que pagarlo.',
    LINK_EXPIRED: 'Ya no acepta pagos. Pide un enlace nuevo a la empresa.',
    LINK_CANCELLED: 'Ya no acepta pagos. Si crees que es un error, contacta a la empresa.',
    LINK_PAID: 'Ya se recibió el pago. No tienes que pagar de nuevo.',
    OVERDUE_NOT_ALLOWED: 'Pasó la fecha de vencimiento y este cobro no admite pagos atrasados. Contacta a la empresa.',
    EARLIER_CYCLE_UNPAID: 'Esta suscripción se paga en orden: paga primero las cuotas anteriores.',
    NO_ONLINE_METHOD: 'La empresa solo acepta pagos en efectivo para este cobro. Contáctala para pagar.',
  },
  subscriptionDone: 'No tienes cuotas pendientes. Gracias.',
  subscriptionNoCycles: 'Todavía no hay cuotas generadas. Vuelve en unos minutos.',
  subscriptionStopped: {
    CANCELLED: ['Esta suscripción fue cancelada', 'Sus cuotas pendientes se cancelaron: no tienes que pagarlas.'],
    PAUSED: ['Esta suscripción está en pausa', 'Sus cuotas pendientes se cancelaron. Al reanudarse verás aquí las nuevas.'],
  },
  errorSummary: 'Revisa estos datos',
  fieldErrors: {
    amount: 'Escribe un importe válido, mayor que cero y no mayor que lo pendiente.',
    method: 'Elige un medio de pago.',
    cycle: 'Elige una cuota que se pueda pagar.',
    cardNumber: 'Escribe un número de tarjeta válido.',
    cardExpiry: 'Escribe una fecha de vencimiento válida (MM/AA) que no haya pasado.',
    cardCvc: 'Escribe el código de seguridad de 3 o 4 dígitos.',
    type: 'Elige el tipo de medio de pago.',
    accountNumber: 'Revisa el número de cuenta.',
    submission: 'El formulario no es válido. Vuelve a cargar la página.',
    link: 'Elige uno de los pagos.',
  },
  declined: (reason) => `El pago fue rechazado (${reason}). No se hizo ningún cargo. Prueba con otro medio de pago.`,
  ruleRefused: 'El pago no se pudo aplicar porque el cobro cambió. No se hizo ningún cargo. Revisa el estado actual.',
  receiptTitle: 'Pago recibido',
  receiptIntro: 'Guarda este comprobante.',
  receiptNumber: 'Comprobante',
  paidAt: 'Fecha',
  reference: 'Referencia del pago',
  backToPayment: 'Volver a la página de pago',
  payRest: 'Pagar lo pendiente',
  notFoundTitle: 'No encontramos esta página',
  notFoundText: 'Revisa que el enlace esté completo, tal como te lo enviaron.',
  tooManyTitle: 'Demasiados intentos',
  tooManyText: (s) => `Espera ${s} segundos y vuelve a intentarlo.`,
  formExpiredTitle: 'El formulario venció',
  formExpiredText: 'Por seguridad, vuelve a cargar la página y envía el formulario de nuevo. No se hizo ningún cargo.',
  reload: 'Volver a cargar la página',
  unavailableTitle: 'Servicio de pagos no disponible',
  unavailableText: 'No pudimos procesar el pago y no se hizo ningún cargo. Inténtalo de nuevo en unos minutos.',
  errorTitle: 'Algo salió mal',
  errorText: 'No pudimos completar la operación. Inténtalo de nuevo más tarde.',
  enrollTitle: 'Registra tu medio de pago',
  enrollIntro: (company) => `${company} cobrará automáticamente tus cuentas con el medio de pago que elijas como predeterminado.`,
  enrollExpiredTitle: 'Este enlace de registro venció',
  enrollExpiredText: (company) => `Pide a ${company} un enlace nuevo.`,
  yourMethods: 'Tus medios de pago registrados',
  defaultMark: 'predeterminado',
  methodType: 'Tipo de medio de pago',
  bankAccount: (kind) => (kind === 'ACCOUNT' ? 'Cuenta bancaria' : `Cuenta bancaria (${kind})`),
  card: 'Tarjeta',
  accountNumber: (kind) => (kind === 'ACCOUNT' ? 'Número de cuenta' : kind),
  accountHint: (kind) => `${ACCOUNT_DIGITS[kind]} dígitos. Solo guardamos los últimos 4.`,
  cardTokenHint: 'La tarjeta se tokeniza con el procesador de pagos; solo guardamos los últimos 4 dígitos.',
  makeDefault: 'Usar como medio de pago predeterminado',
  firstIsDefault: 'Tu primer medio de pago siempre es el predeterminado.',
  registerButton: 'Registrar',
  enrolledTitle: 'Medio de pago registrado',
  enrolledText: (reference, isDefault) => `Registramos ${reference}${isDefault ? ' como tu medio de pago predeterminado' : ''}.`,
  registerAnother: 'Registrar otro medio de pago',
};

const en: Messages = {
  skipToContent: 'Skip to content',
  securePayment: 'Secure payment',
  sandboxNotice: 'Sandbox: no real money moves.',
  payTitle: 'Pay your bill',
  subscriptionTitle: 'Your subscription payments',
  linkTitle: 'Pay',
  chooseTitle: 'Choose what to pay',
  chooseIntro: 'Several payments are pending under this link. Choose one.',
  creditor: 'Company',
  debtor: 'Billed to',
  description: 'Description',
  amount: 'Amount',
  dueDate: 'Due date',
  expiresAt: 'Valid until',
  status: 'Status',
  amountPaid: 'Paid',
  remaining: 'Remaining',
  paymentsReceived: 'Payments received',
  reusableNote: 'This link takes several payments of the same amount.',
  payFull: (amount) => (amount ? `Pay the whole remaining amount (${amount})` : 'Pay the whole remaining amount of the cycle'),
  payOther: 'Pay another amount',
  otherAmount: 'Amount to pay',
  otherAmountHint: (max) => `Up to ${max}. Example: 150.00`,
  howMuch: 'How much do you want to pay?',
  method: 'Payment method',
  methods: { CARD: 'Card', TRANSFER: 'Transfer', BANK_TRANSFER: 'Bank transfer', WALLET: 'Digital wallet', CASH: 'Cash' },
  cardDetails: 'Card details',
  cardOnlyHint: 'Only when you pay by card.',
  cardNumber: 'Card number',
  cardExpiry: 'Expiry (MM/YY)',
  cardExpiryHint: 'Example: 08/29',
  cardCvc: 'Security code (CVC)',
  payButton: 'Pay',
  cycles: 'Cycles',
  cycle: 'Cycle',
  cycleNumber: (n) => `Cycle ${n}`,
  cycleToPay: 'Cycle to pay',
  nextCycle: (due) => `Next cycle to pay: due ${due}.`,
  debtStatus: { PENDING: 'Pending', PARTIALLY_PAID: 'Partially paid', PAID: 'Paid', OVERDUE: 'Overdue', CANCELLED: 'Cancelled' },
  linkStatus: { ACTIVE: 'Active', PAID: 'Paid', EXPIRED: 'Expired', CANCELLED: 'Cancelled' },
  subscriptionStatus: { ACTIVE: 'Active', PAUSED: 'Paused', ENDED: 'Ended', CANCELLED: 'Cancelled' },
  notPayableTitle: {
    PAID: 'This bill is paid',
    CANCELLED: 'This charge was cancelled',
    LINK_EXPIRED: 'This payment link has expired',
    LINK_CANCELLED: 'This payment link was cancelled',
    LINK_PAID: 'This payment link is already paid',
    OVERDUE_NOT_ALLOWED: 'This charge is past due',
    EARLIER_CYCLE_UNPAID: 'Pay the earlier cycles first',
    NO_ONLINE_METHOD: 'This charge cannot be paid online',
  },
  notPayableText: {
    PAID: 'Nothing is left to pay. Thank you.',
    CANCELLED: 'The company cancelled this charge. You do not have to pay it.',
    LINK_EXPIRED: 'It no longer takes payments. Ask the company for a new link.',
    LINK_CANCELLED: 'It no longer takes payments. If you think this is a mistake, contact the company.',
    LINK_PAID: 'The payment was received. You do not have to pay again.',
    OVERDUE_NOT_ALLOWED: 'Its due date has passed and it takes no late payments. Contact the company.',
    EARLIER_CYCLE_UNPAID: 'This subscription is paid in order: pay the earlier cycles first.',
    NO_ONLINE_METHOD: 'The company takes only cash for this charge. Contact it to pay.',
  },
  subscriptionDone: 'No cycle is left to pay. Thank you.',
  subscriptionNoCycles: 'No cycle has been generated yet. Come back in a few minutes.',
  subscriptionStopped: {
    CANCELLED: ['This subscription was cancelled', 'Its pending cycles were cancelled: you do not have to pay them.'],
    PAUSED: ['This subscription is paused', 'Its pending cycles were cancelled. When it resumes, the new ones appear here.'],
  },
  errorSummary: 'Please check the following',
  fieldErrors: {
    amount: 'Enter a valid amount, above zero and not more than what is left to pay.',
    method: 'Choose a payment method.',
    cycle: 'Choose a cycle that can be paid.',
    cardNumber: 'Enter a valid card number.',
    cardExpiry: 'Enter a valid expiry date (MM/YY) that has not passed.',
    cardCvc: 'Enter the 3 or 4 digit security code.',
    type: 'Choose the kind of payment method.',
    accountNumber: 'Check the account number.',
    submission: 'The form is not valid. Reload the page.',
    link: 'Choose one of the payments.',
  },
  declined: (reason) => `The payment was declined (${reason}). Nothing was charged. Try another payment method.`,
  ruleRefused: 'The payment could not be applied because the charge changed. Nothing was charged. Check its current state.',
  receiptTitle: 'Payment received',
  receiptIntro: 'Keep this receipt.',
  receiptNumber: 'Receipt',
  paidAt: 'Date',
  reference: 'Payment reference',
  backToPayment: 'Back to the payment page',
  payRest: 'Pay what is left',
  notFoundTitle: 'We could not find this page',
  notFoundText: 'Check that the link is complete, exactly as you received it.',
  tooManyTitle: 'Too many attempts',
  tooManyText: (s) => `Wait ${s} seconds and try again.`,
  formExpiredTitle: 'This form has expired',
  formExpiredText: 'For your security, reload the page and send the form again. Nothing was charged.',
  reload: 'Reload the page',
  unavailableTitle: 'Payment service unavailable',
  unavailableText: 'We could not process the payment and nothing was charged. Try again in a few minutes.',
  errorTitle: 'Something went wrong',
  errorText: 'We could not complete this. Try again later.',
  enrollTitle: 'Register your payment method',
  enrollIntro: (company) => `${company} will collect your bills automatically with the payment method you choose as default.`,
  enrollExpiredTitle: 'This registration link has expired',
  enrollExpiredText: (company) => `Ask ${company} for a new link.`,
  yourMethods: 'Your registered payment methods',
  defaultMark: 'default',
  methodType: 'Kind of payment method',
  bankAccount: (kind) => (kind === 'ACCOUNT' ? 'Bank account' : `Bank account (${kind})`),
  card: 'Card',
  accountNumber: (kind) => (kind === 'ACCOUNT' ? 'Account number' : kind),
  accountHint: (kind) => `${ACCOUNT_DIGITS[kind]} digits. We keep only the last 4.`,
  cardTokenHint: 'The card is tokenized by the payment processor; we keep only its last 4 digits.',
  makeDefault: 'Use as my default payment method',
  firstIsDefault: 'Your first payment method is always the default.',
  registerButton: 'Register',
  enrolledTitle: 'Payment method registered',
  enrolledText: (reference, isDefault) => `We registered ${reference}${isDefault ? ' as your default payment method' : ''}.`,
  registerAnother: 'Register another payment method',
};

export function messagesFor(locale: Locale): Messages {
  return locale === 'en-US' ? en : es;
}
