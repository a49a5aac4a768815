import type { InstructionMethod, InstructionStatus, TransferAccountType } from '../../../internal/payment-instructions/payment-instruction';
import type { Locale } from './locale';

/** The texts of cash and transfer payments on the hosted pages and the printable voucher. */
export interface InstructionMessages {
  methodHint: Record<InstructionMethod, string>;
  waitingTitle: string;
  pendingIntro: string;
  pendingItem(method: InstructionMethod, amount: string, until: string): string;
  seeInstruction: string;
  title: Record<InstructionMethod, string>;
  transferIntro: string;
  cashIntro(networks: string): string;
  autoRefresh: string;
  account(kind: TransferAccountType): string;
  bank: string;
  beneficiary: string;
  amountToPay: string;
  reference: string;
  validUntil: string;
  received: string;
  networks: string;
  barcodeAlt(value: string): string;
  printVoucher: string;
  copy(field: string): string;
  copied: string;
  status: Record<InstructionStatus, string>;
  paidTitle: string;
  paidText: string;
  expiredTitle: Record<InstructionMethod, string>;
  expiredText: string;
  cancelledTitle: string;
  cancelledText: string;
  newInstruction: string;
  voucherTitle: string;
  voucherFor(company: string): string;
  voucherSteps(networks: string): string[];
  voucherNotice: string;
  sandboxNotice: string;
}

const ACCOUNT_ES: Record<TransferAccountType, string> = { CLABE: 'CLABE', CVU: 'CVU', CCI: 'CCI', ACCOUNT: 'Número de cuenta' };
const ACCOUNT_EN: Record<TransferAccountType, string> = { CLABE: 'CLABE', CVU: 'CVU', CCI: 'CCI', ACCOUNT: 'Account number' };

const es: InstructionMessages = {
  methodHint: {
    TRANSFER: 'Te damos una cuenta para transferir desde tu banco o tu app. Se confirma cuando llega el dinero.',
    CASH: 'Te damos una ficha con código de barras para pagar en una tienda. Se confirma cuando la tienda registra el pago.',
  },
  waitingTitle: 'Esperando tu pago',
  pendingIntro: 'Ya pediste estas instrucciones de pago. Cuando llegue el dinero lo verás aquí.',
  pendingItem: (method, amount, until) => `${method === 'TRANSFER' ? 'Transferencia' : 'Efectivo'} de ${amount}, vigente hasta el ${until}`,
  seeInstruction: 'Ver los datos',
  title: { TRANSFER: 'Datos para tu transferencia', CASH: 'Tu ficha de pago en efectivo' },
  transferIntro: 'Transfiere exactamente este importe a esta cuenta desde tu banco o tu app. La cuenta es solo para este pago.',
  cashIntro: (networks) => `Paga en efectivo en ${networks}: muestra el código de barras en la caja o dicta la referencia.`,
  autoRefresh: 'Esta página se actualiza sola cuando llega tu pago.',
  account: (kind) => ACCOUNT_ES[kind],
  bank: 'Banco',
  beneficiary: 'Beneficiario',
  amountToPay: 'Importe',
  reference: 'Referencia',
  validUntil: 'Vigente hasta',
  received: 'Recibido',
  networks: 'Dónde pagar',
  barcodeAlt: (value) => `Código de barras de la referencia ${value}`,
  printVoucher: 'Descargar la ficha para imprimir (PDF)',
  copy: (field) => `Copiar ${field}`,
  copied: 'Copiado',
  status: { PENDING: 'Esperando tu pago', PAID: 'Pagada', EXPIRED: 'Vencida', CANCELLED: 'Cancelada' },
  paidTitle: 'Recibimos tu pago',
  paidText: 'Gracias. El pago ya se aplicó a tu cuenta.',
  expiredTitle: { TRANSFER: 'Esta cuenta para transferir venció', CASH: 'Esta ficha de pago venció' },
  expiredText: 'Ya no recibe pagos. Si todavía debes algo, pide nuevas instrucciones en la página de pago.',
  cancelledTitle: 'Ya no necesitas pagar con estas instrucciones',
  cancelledText: 'El cobro se pagó por otro medio o se canceló. Si aun así haces un pago, se te devuelve.',
  newInstruction: 'Ir a la página de pago',
  voucherTitle: 'Ficha de pago en efectivo',
  voucherFor: (company) => `Pago a ${company}`,
  voucherSteps: (networks) => [
    `Acude a ${networks}.`,
    'Di en la caja que vas a pagar un servicio con código de barras y muestra esta ficha (impresa o en tu teléfono).',
    'Paga exactamente el importe indicado, en efectivo.',
    'Guarda tu ticket: es tu comprobante. El pago se confirma cuando la tienda lo registra.',
  ],
  voucherNotice: 'Esta ficha es solo para este pago y vence en la fecha indicada.',
  sandboxNotice: 'Entorno de pruebas: esta ficha no mueve dinero real.',
};

const en: InstructionMessages = {
  methodHint: {
    TRANSFER: 'We give you an account to transfer to from your bank or app. It is confirmed when the money arrives.',
    CASH: 'We give you a voucher with a barcode to pay at a store. It is confirmed when the store records the payment.',
  },
  waitingTitle: 'Waiting for your payment',
  pendingIntro: 'You already asked for these payment instructions. When the money arrives you will see it here.',
  pendingItem: (method, amount, until) => `${method === 'TRANSFER' ? 'Transfer' : 'Cash'} of ${amount}, valid until ${until}`,
  seeInstruction: 'See the details',
  title: { TRANSFER: 'Your transfer details', CASH: 'Your cash payment voucher' },
  transferIntro: 'Transfer exactly this amount to this account from your bank or app. The account is for this payment only.',
  cashIntro: (networks) => `Pay in cash at ${networks}: show the barcode at the till or read out the reference.`,
  autoRefresh: 'This page updates by itself when your payment arrives.',
  account: (kind) => ACCOUNT_EN[kind],
  bank: 'Bank',
  beneficiary: 'Beneficiary',
  amountToPay: 'Amount',
  reference: 'Reference',
  validUntil: 'Valid until',
  received: 'Received',
  networks: 'Where to pay',
  barcodeAlt: (value) => `Barcode of reference ${value}`,
  printVoucher: 'Download the voucher to print (PDF)',
  copy: (field) => `Copy ${field}`,
  copied: 'Copied',
  status: { PENDING: 'Waiting for your payment', PAID: 'Paid', EXPIRED: 'Expired', CANCELLED: 'Cancelled' },
  paidTitle: 'We received your payment',
  paidText: 'Thank you. The payment has been applied.',
  expiredTitle: { TRANSFER: 'This transfer account has expired', CASH: 'This payment voucher has expired' },
  expiredText: 'It takes no more payments. If you still owe something, ask for new instructions on the payment page.',
  cancelledTitle: 'You no longer need to pay with these instructions',
  cancelledText: 'The charge was paid another way or cancelled. If you pay anyway, the money is returned to you.',
  newInstruction: 'Go to the payment page',
  voucherTitle: 'Cash payment voucher',
  voucherFor: (company) => `Payment to ${company}`,
  voucherSteps: (networks) => [
    `Go to ${networks}.`,
    'Tell the cashier you are paying a bill with a barcode and show this voucher (printed or on your phone).',
    'Pay exactly the amount shown, in cash.',
    'Keep your ticket: it is your receipt. The payment is confirmed when the store records it.',
  ],
  voucherNotice: 'This voucher is for this payment only and expires on the date shown.',
  sandboxNotice: 'Sandbox: this voucher moves no real money.',
};

export function instructionMessagesFor(locale: Locale): InstructionMessages {
  return locale === 'en-US' ? en : es;
}

/** `a, b o c` / `a, b or c`. */
export function listOf(items: string[], locale: Locale): string {
  return new Intl.ListFormat(locale === 'en-US' ? 'en' : 'es', { style: 'long', type: 'disjunction' }).format(items);
}
