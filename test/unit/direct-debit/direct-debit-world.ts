import { SimulatedDirectDebitGateway, type SimulatedDirectDebitOptions } from '../../../adapters/gateways/simulated-direct-debit-gateway';
import type { DebtDraft } from '../../../internal/debts/debt-draft';
import type { PaymentMethodType } from '../../../internal/direct-debit/payment-method';
import type { Product } from '../../../internal/products/product';
import type { TenantScope } from '../../../internal/shared/tenant-scope';
import type { DebitRequest, DebitResult } from '../../../ports/direct-debit-gateway';
import { type MemoryWorld, memoryWorld } from '../../support/memory-world';
import { SwitchableJobQueue } from '../../support/switchable-queue';

export const T0 = new Date('2031-05-10T15:00:00.000Z');
export const TODAY = '2031-05-10';
export const DAY_MS = 86_400_000;
const PAGE = { page: 1, limit: 500 };

/** The sandbox gateway, recording calls; `crashAfterDebit` throws once after the platform took the debit. */
export class RecordingGateway extends SimulatedDirectDebitGateway {
  readonly debits: DebitRequest[] = [];
  readonly adhesionKeys: string[] = [];
  crashAfterDebit = false;

  get debitKeys(): string[] {
    return this.debits.map((d) => d.idempotencyKey);
  }

  override async requestAdhesion(request: { idempotencyKey: string }): Promise<void> {
    this.adhesionKeys.push(request.idempotencyKey);
  }

  override async debit(request: DebitRequest): Promise<DebitResult> {
    this.debits.push(request);
    const result = await super.debit(request);
    if (this.crashAfterDebit) {
      this.crashAfterDebit = false;
      throw new Error('worker died after the platform took the debit');
    }
    return result;
  }
}

export interface DirectDebitWorld {
  w: MemoryWorld;
  queue: SwitchableJobQueue;
  gateway: RecordingGateway;
  scope: TenantScope;
  product: Product;
  drain(): Promise<void>;
  register(user: string, type?: PaymentMethodType, isDefault?: boolean): ReturnType<MemoryWorld['app']['commands']['registerPaymentMethod']['execute']>;
  createDebt(key: string, overrides?: Partial<DebtDraft>): ReturnType<typeof createDebtOf>;
  debt(key: string): ReturnType<MemoryWorld['repos']['debts']['findByExternalRequestId']>;
  /** The debt's attempts, by number. */
  attempts(key: string): ReturnType<MemoryWorld['repos']['debitAttempts']['listByDebt']>;
  /** The debit job, as the scheduler runs it. */
  runDebits(): ReturnType<MemoryWorld['app']['jobs']['executeDueDebits']['execute']>;
  eventTypes(): Promise<string[]>;
  /** The `data.object` of every event of these types, oldest first. */
  eventObjects(...types: string[]): Promise<Record<string, unknown>[]>;
}

async function createDebtOf(w: MemoryWorld, scope: TenantScope, product: Product, key: string, overrides: Partial<DebtDraft>) {
  const draft: DebtDraft = { debtor: { externalClientId: 'ana' }, product: { productNumber: product.id }, amountCents: 10_000, dueDate: '2031-05-20', evaluateAutopay: true, ...overrides };
  return (await w.app.commands.createDebt.execute(draft, key, scope)).debt;
}

/**
 * A tenant with direct debit on (unless told), the product Gym and contacts ana, bob and cy, on
 * a world clock held at T0; the queue can be made unreachable and the gateway records its calls.
 */
export async function directDebitWorld(
  settings = { directDebitEnabled: true, directDebitModality: true },
  gatewayOptions: SimulatedDirectDebitOptions = {},
): Promise<DirectDebitWorld> {
  const gateway = new RecordingGateway(gatewayOptions);
  const queue = new SwitchableJobQueue();
  const w = memoryWorld(T0, {
    ports: { directDebit: gateway },
    wrapQueue: (inner) => {
      queue.inner = inner;
      return queue;
    },
  });
  return build(w, queue, gateway, settings);
}

async function build(w: MemoryWorld, queue: SwitchableJobQueue, gateway: RecordingGateway, settings: { directDebitEnabled: boolean; directDebitModality: boolean }): Promise<DirectDebitWorld> {
  const { scope } = await w.newTenant({ settings });
  const product = await w.app.commands.createProduct.execute({ name: 'Gym' }, scope);
  for (const user of ['ana', 'bob', 'cy']) {
    await w.app.commands.createContact.execute({ externalClientId: user, name: user, email: `${user}@example.com` }, scope);
  }
  const events = async () => (await w.repos.events.list(scope.company.id, {}, PAGE)).items.reverse();
  return {
    w,
    queue,
    gateway,
    scope,
    product,
    drain: () => w.infra.jobs.inProcess!.drain(),
    register: (user, type = 'BANK_ACCOUNT', isDefault) => w.app.commands.registerPaymentMethod.execute({ externalClientId: user, type, isDefault }, scope),
    createDebt: (key, overrides = {}) => createDebtOf(w, scope, product, key, overrides),
    debt: (key) => w.repos.debts.findByExternalRequestId(scope.company.id, key),
    attempts: async (key) => w.repos.debitAttempts.listByDebt((await w.repos.debts.findByExternalRequestId(scope.company.id, key))!.id),
    runDebits: () => w.app.jobs.executeDueDebits.execute(),
    eventTypes: async () => (await events()).map((e) => e.type),
    eventObjects: async (...types) =>
      (await events()).filter((e) => types.includes(e.type)).map((e) => (e as unknown as { payload: { data: { object: Record<string, unknown> } } }).payload.data.object),
  };
}
