import crypto from 'node:crypto';
import { cbuCheckDigit, clabeCheckDigit } from '../../internal/direct-debit/bank-account';
import { TRANSFER_ACCOUNT_TYPE_BY_CURRENCY } from '../../internal/payment-instructions/payment-instruction';
import { isWireInstant } from '../../internal/shared/calendar-date';
import { type Currency, isCurrency } from '../../internal/shared/currency';
import { AuthenticationFailedError, type ErrorDetail, InvalidRequestError } from '../../internal/shared/errors';
import { amountFromCents, centsFromAmount } from '../../internal/shared/money';
import type {
  IssuedInstruction, IssueInstructionRequest, PaymentInstructionProvider, ReceivedMoney,
} from '../../ports/payment-instruction-provider';

/** The header the sandbox signs its notifications with: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`. */
export const SANDBOX_SIGNATURE_HEADER = 'X-Sandbox-Signature';
/** A notification signed longer ago (or ahead) than this is a replay: refused. */
export const SANDBOX_TOLERANCE_SECONDS = 300;
export const SANDBOX_NOTIFICATION_TYPE = 'payment.received';

/** Where each currency's cash vouchers can be paid (what a real aggregator would list). */
const CASH_NETWORKS: Record<Currency, string[]> = {
  MXN: ['OXXO', '7-Eleven', 'Farmacias del Ahorro'],
  ARS: ['Rapipago', 'Pago Fácil'],
  PEN: ['PagoEfectivo', 'Tambo+'],
  COP: ['Efecty', 'Baloto'],
  CLP: ['Servipag', 'Caja Vecina'],
  USD: ['Sandbox Cash'],
};

const BANK_NAMES: Record<Currency, string> = {
  MXN: 'STP (sandbox)',
  ARS: 'PSP Sandbox',
  PEN: 'Banco Sandbox Perú',
  COP: 'Banco Sandbox Colombia',
  CLP: 'Banco Sandbox Chile',
  USD: 'Sandbox Bank',
};

/** The sandbox notification body. */
export interface SandboxNotificationBody {
  id: string;
  type: typeof SANDBOX_NOTIFICATION_TYPE;
  instruction: string;
  amount: number;
  currency: Currency;
  receivedAt: string;
}

/**
 * The sandbox provider of payment instructions: no money moves. It issues accounts from its own
 * ranges that pass their country's checks (a CLABE of STP's 646-180 with the sandbox's 99 and its
 * check digit; a CVU of the sandbox PSP 0000999 with both check digits; a CCI of bank 099, branch
 * 999 with two check digits; a 12-digit account number elsewhere), and 16-digit cash barcodes.
 * It signs its notifications like a real provider (HMAC-SHA256 over the timestamp and the exact
 * body, a 5-minute replay window) and names each transaction once, so a redelivery is the same
 * transaction. Refunds are answered at once, the same reference for the same key.
 */
export class SandboxPaymentInstructionProvider implements PaymentInstructionProvider {
  readonly name = 'sandbox';

  constructor(private readonly secret: string, private readonly toleranceSeconds = SANDBOX_TOLERANCE_SECONDS) {
    if (secret.length < 32) throw new Error('the sandbox provider secret must be at least 32 characters');
  }

  /** A key derived from the JWT secret, so every API and worker process signs and checks alike. */
  static derivedFrom(jwtSecret: string): SandboxPaymentInstructionProvider {
    return new SandboxPaymentInstructionProvider(crypto.createHmac('sha256', jwtSecret).update('collections-facade/sandbox-payment-provider/v1').digest('base64url'));
  }

  async issue(request: IssueInstructionRequest): Promise<IssuedInstruction> {
    if (request.method === 'CASH') {
      const barcodeValue = `99${digits(14)}`;
      return { method: 'CASH', providerReference: barcodeValue, reference: barcodeValue, cash: { barcodeValue, networks: [...CASH_NETWORKS[request.currency]] } };
    }
    const accountNumber = sandboxAccount(request.currency);
    return {
      method: 'TRANSFER',
      providerReference: accountNumber,
      reference: String(crypto.randomInt(1_000_000, 10_000_000)),
      transfer: {
        accountType: TRANSFER_ACCOUNT_TYPE_BY_CURRENCY[request.currency],
        accountNumber,
        bankName: BANK_NAMES[request.currency],
        beneficiary: request.beneficiary,
      },
    };
  }

  verifyNotification(notification: { headers: Record<string, string | undefined>; body: string }, now: Date): ReceivedMoney {
    const header = headerOf(notification.headers, SANDBOX_SIGNATURE_HEADER);
    const parts = Object.fromEntries((header ?? '').split(',').map((p) => p.trim().split('=') as [string, string]));
    const t = Number(parts.t);
    if (!header || !/^\d{1,12}$/.test(parts.t ?? '') || !/^[0-9a-f]{64}$/.test(parts.v1 ?? '')) {
      throw new AuthenticationFailedError('Missing or malformed provider signature');
    }
    if (Math.abs(now.getTime() / 1000 - t) > this.toleranceSeconds) throw new AuthenticationFailedError('Provider signature outside the replay window');
    const expected = this.hmac(`${t}.${notification.body}`);
    const given = Buffer.from(parts.v1!, 'hex');
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) throw new AuthenticationFailedError('Provider signature does not match');
    return parseBody(notification.body);
  }

  async refund(request: { idempotencyKey: string }): Promise<{ reference: string }> {
    return { reference: `sbx_rfd_${crypto.createHash('sha256').update(request.idempotencyKey).digest('hex').slice(0, 20)}` };
  }

  readonly sandbox = {
    notificationFor: (money: Omit<ReceivedMoney, 'transactionId'>): { transactionId: string; body: string } => {
      const transactionId = `sbx_txn_${crypto.randomBytes(12).toString('hex')}`;
      const body: SandboxNotificationBody = {
        id: transactionId,
        type: SANDBOX_NOTIFICATION_TYPE,
        instruction: money.providerReference,
        amount: amountFromCents(money.amountCents),
        currency: money.currency,
        receivedAt: money.receivedAt.toISOString(),
      };
      return { transactionId, body: JSON.stringify(body) };
    },
    sign: (body: string, now: Date): Record<string, string> => {
      const t = Math.floor(now.getTime() / 1000);
      return { [SANDBOX_SIGNATURE_HEADER]: `t=${t},v1=${this.hmac(`${t}.${body}`).toString('hex')}` };
    },
  };

  private hmac(payload: string): Buffer {
    return crypto.createHmac('sha256', this.secret).update(payload, 'utf8').digest();
  }
}

/** A fresh account of the sandbox's range for the currency, valid for its country. */
export function sandboxAccount(currency: Currency): string {
  switch (TRANSFER_ACCOUNT_TYPE_BY_CURRENCY[currency]) {
    case 'CLABE': {
      const first17 = `64618099${digits(9)}`;
      return first17 + clabeCheckDigit(first17);
    }
    case 'CVU': {
      const entity = '0000999';
      const account = `99${digits(11)}`;
      return `${entity}${cbuCheckDigit(entity)}${account}${cbuCheckDigit(account)}`;
    }
    case 'CCI': {
      const bankBranch = '099999';
      const account = `99${digits(10)}`;
      return `${bankBranch}${account}${cciCheckDigit(bankBranch)}${cciCheckDigit(account)}`;
    }
    case 'ACCOUNT':
      return `99${digits(10)}`;
  }
}

/**
 * A CCI check digit over one block (bank and branch, or account): weights 1 and 2 from the left,
 * the digits of each product summed, then (10 − sum mod 10) mod 10.
 */
export function cciCheckDigit(block: string): number {
  let sum = 0;
  for (let i = 0; i < block.length; i++) {
    const product = Number(block[i]) * (i % 2 === 0 ? 1 : 2);
    sum += product > 9 ? product - 9 : product;
  }
  return (10 - (sum % 10)) % 10;
}

function digits(n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += String(crypto.randomInt(0, 10));
  return out;
}

function headerOf(headers: Record<string, string | undefined>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

/** The signed body: `{ id, type: "payment.received", instruction, amount, currency, receivedAt }`. */
function parseBody(body: string): ReceivedMoney {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new InvalidRequestError('Malformed JSON body', [{ field: 'body', issue: 'is not valid JSON' }]);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw InvalidRequestError.field('body', 'must be a JSON object');
  const n = parsed as Record<string, unknown>;
  const problems: ErrorDetail[] = [];
  const text = (field: string, pattern: RegExp) => {
    if (typeof n[field] !== 'string' || !pattern.test(n[field] as string)) problems.push({ field, issue: `must match ${pattern.source}` });
  };
  text('id', /^[A-Za-z0-9_-]{1,100}$/);
  text('instruction', /^[A-Za-z0-9_-]{1,64}$/);
  if (n.type !== SANDBOX_NOTIFICATION_TYPE) problems.push({ field: 'type', issue: `must be ${SANDBOX_NOTIFICATION_TYPE}` });
  if (!isCurrency(n.currency)) problems.push({ field: 'currency', issue: 'must be one of MXN, ARS, PEN, COP, CLP, USD' });
  let amountCents = 0;
  try {
    amountCents = centsFromAmount(n.amount as number);
  } catch (error) {
    problems.push(...((error as InvalidRequestError).details ?? [{ field: 'amount', issue: 'must be a number' }]));
  }
  const receivedAt = typeof n.receivedAt === 'string' && /^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:\d{2})$/.test(n.receivedAt) ? new Date(n.receivedAt) : null;
  if (!receivedAt || !isWireInstant(receivedAt.getTime())) problems.push({ field: 'receivedAt', issue: 'must be an RFC 3339 date-time' });
  if (problems.length > 0) throw new InvalidRequestError('Invalid notification', problems);
  return { transactionId: n.id as string, providerReference: n.instruction as string, amountCents, currency: n.currency as Currency, receivedAt: receivedAt! };
}
