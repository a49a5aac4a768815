import type { Clock } from '../ports/clock';
import type { JobPace } from '../ports/job-pace';
import type { DirectDebitGateway } from '../ports/direct-debit-gateway';
import type { IdGenerator } from '../ports/id-generator';
import type { JobQueue } from '../ports/job-queue';
import type { MessageSenders } from '../ports/message-sender';
import type { ReminderLinks } from '../ports/reminder-links';
import type { PaymentInstructionProvider } from '../ports/payment-instruction-provider';
import type { PaymentProcessor } from '../ports/payment-processor';
import type { PasswordHasher, SecretHasher } from '../ports/secret-hasher';
import type { TokenService } from '../ports/token-service';
import type { Repositories, UnitOfWork } from '../ports/unit-of-work';
import { CancelDebt } from './debts/commands/cancel-debt';
import { CreateDebt } from './debts/commands/create-debt';
import { CreateDebtBatch } from './debts/commands/create-debt-batch';
import { PayDebt } from './debts/commands/pay-debt';
import { CancelAdhesion } from './direct-debit/commands/cancel-adhesion';
import { EnrollAdhesion } from './direct-debit/commands/enroll-adhesion';
import { RegisterPaymentMethod } from './direct-debit/commands/register-payment-method';
import { ExecuteDueDebits } from './direct-debit/jobs/execute-due-debits';
import { RequestAdhesion } from './direct-debit/jobs/request-adhesion';
import { ListPaymentMethods } from './direct-debit/queries/list-payment-methods';
import { EnrollThroughPage } from './direct-debit/commands/enroll-through-page';
import { IssueEnrollmentLink } from './direct-debit/commands/issue-enrollment-link';
import { GetEnrollmentPage } from './direct-debit/queries/get-enrollment-page';
import { paymentInstructionUseCases } from './payment-instructions/use-cases';
import { reminderUseCases } from './reminders/use-cases';
import { PayThroughPortal } from './portal/commands/pay-through-portal';
import { InstructThroughPortal } from './portal/commands/instruct-through-portal';
import { GetInstructionPage } from './portal/queries/get-instruction-page';
import { GetPortalPage } from './portal/queries/get-portal-page';
import { GetPortalReceipt } from './portal/queries/get-portal-receipt';
import { UpdateDebt } from './debts/commands/update-debt';
import { MarkOverdueDebts } from './debts/jobs/mark-overdue-debts';
import { GetDebt } from './debts/queries/get-debt';
import { ListDebts } from './debts/queries/list-debts';
import { CancelPaymentLink } from './payment-links/commands/cancel-payment-link';
import { CreatePaymentLink } from './payment-links/commands/create-payment-link';
import { PayPaymentLink } from './payment-links/commands/pay-payment-link';
import { UpdatePaymentLink } from './payment-links/commands/update-payment-link';
import { MarkExpiredPaymentLinks } from './payment-links/jobs/mark-expired-payment-links';
import { GetPaymentLink } from './payment-links/queries/get-payment-link';
import { ListLinkPayments } from './payment-links/queries/list-link-payments';
import { ListPaymentLinks } from './payment-links/queries/list-payment-links';
import { DispatchOutbox } from './shared/jobs/dispatch-outbox';
import { ChangeSubscriptionState } from './subscriptions/commands/change-subscription-state';
import { CreateSubscription } from './subscriptions/commands/create-subscription';
import { UpdateSubscription } from './subscriptions/commands/update-subscription';
import { GenerateSubscriptionCycles } from './subscriptions/jobs/generate-subscription-cycles';
import { MarkEndedSubscriptions } from './subscriptions/jobs/mark-ended-subscriptions';
import { GetSubscription } from './subscriptions/queries/get-subscription';
import { ListSubscriptionDebts, ListSubscriptions } from './subscriptions/queries/list-subscriptions';
import { CreateContact } from './contacts/commands/create-contact';
import { UpdateContact } from './contacts/commands/update-contact';
import { GetContact } from './contacts/queries/get-contact';
import { ListContacts } from './contacts/queries/list-contacts';
import { CreateProduct } from './products/commands/create-product';
import { DeleteProduct } from './products/commands/delete-product';
import { UpdateProduct } from './products/commands/update-product';
import { GetProduct } from './products/queries/get-product';
import { ListProducts } from './products/queries/list-products';
import { AuthenticateRequest } from './tenancy/commands/authenticate-request';
import { BootstrapDemoTenant } from './tenancy/commands/bootstrap-demo-tenant';
import { CreateClient } from './tenancy/commands/create-client';
import { DisableClient } from './tenancy/commands/disable-client';
import { Login } from './tenancy/commands/login';
import { RefreshSession } from './tenancy/commands/refresh-session';
import { RotateApiKey } from './tenancy/commands/rotate-api-key';
import { SetOrganizationClock } from './tenancy/commands/set-organization-clock';
import { UpdateCompany } from './tenancy/commands/update-company';
import type { AppEnv } from './tenancy/credentials';
import { PurgeExpiredRefreshTokens } from './tenancy/jobs/purge-expired-refresh-tokens';
import { ListClients } from './tenancy/queries/list-clients';
import { GetEvent } from './events/queries/get-event';
import { ListEvents } from './events/queries/list-events';
import { CreateWebhookEndpoint } from './webhooks/commands/create-webhook-endpoint';
import { DeleteWebhookEndpoint } from './webhooks/commands/delete-webhook-endpoint';
import { RedeliverEvent } from './webhooks/commands/redeliver-event';
import { RotateWebhookEndpointSecret } from './webhooks/commands/rotate-webhook-endpoint-secret';
import { TestWebhookEndpoint } from './webhooks/commands/test-webhook-endpoint';
import { UpdateWebhookEndpoint } from './webhooks/commands/update-webhook-endpoint';
import { DeliverWebhook } from './webhooks/jobs/deliver-webhook';
import { DispatchWebhooks } from './webhooks/jobs/dispatch-webhooks';
import { FanOutEvents } from './webhooks/jobs/fan-out-events';
import { GetWebhookEndpoint } from './webhooks/queries/get-webhook-endpoint';
import { ListWebhookEndpoints } from './webhooks/queries/list-webhook-endpoints';
import { WebhookDeliveryStats } from './webhooks/queries/webhook-delivery-stats';
import type { WebhookSettings } from './webhooks/webhook-settings';
import { SetRateLimit } from './tenancy/commands/set-rate-limit';
import { ReadAuditLog } from './audit/queries/read-audit-log';

/** The ports the core runs on; cmd/shared/infrastructure.ts provides real or in-memory ones. */
export interface CorePorts {
  uow: UnitOfWork;
  repos: Repositories;
  clock: Clock;
  /** How the status sweeps spread a backlog over time (BACKGROUND_JOB_DUTY_CYCLE). */
  jobPace: JobPace;
  ids: IdGenerator;
  secrets: SecretHasher;
  passwords: PasswordHasher;
  tokens: TokenService;
  queue: JobQueue;
  /** The direct-debit platform (adhesions and debits). */
  directDebit: DirectDebitGateway;
  appEnv: AppEnv;
  /** Webhook delivery: the HTTP sender, the url policy and the retry schedule. */
  webhooks: WebhookSettings;
  /** The card and transfer processor of the hosted portal. */
  paymentProcessor: PaymentProcessor;
  /** Issues transfer accounts and cash vouchers, and notifies the money that arrives (docs/cash-and-transfer.md). */
  paymentInstructionProvider: PaymentInstructionProvider;
  /** The channels payment reminders go out on (email, SMS, WhatsApp): sandbox or real adapters. */
  senders: MessageSenders;
  /** The hosted pages a reminder links to (the debt's payment page, the one-click unsubscribe). */
  reminderLinks: ReminderLinks;
}

export type Application = ReturnType<typeof buildApplication>;

/** Every use case, wired once: the one core behind the api, worker and admin doors. */
export function buildApplication(ports: CorePorts) {
  const { repos, ...rest } = ports;
  const base = {
    ...rest,
    repos,
    tenancy: repos.tenancy,
    credentials: repos.credentials,
    refreshTokens: repos.refreshTokens,
    contacts: repos.contacts,
    products: repos.products,
    debts: repos.debts,
    paymentLinks: repos.paymentLinks,
    subscriptions: repos.subscriptions,
    paymentMethods: repos.paymentMethods,
    outbox: repos.outbox,
    events: repos.events,
    webhookEndpoints: repos.webhookEndpoints,
    webhookDeliveries: repos.webhookDeliveries,
  };
  // One outbox dispatcher per process: the jobs handed over after commits and its periodic runs
  // share its pending marks (DispatchOutbox), so a periodic run does not hand over what a commit just did.
  const dispatchOutbox = new DispatchOutbox(base);
  const listDebts = new ListDebts(base);
  const createClient = new CreateClient(base);
  const enrollAdhesion = new EnrollAdhesion(base);
  const executeDueDebits = new ExecuteDueDebits(base);
  const fanOutEvents = new FanOutEvents(base);
  const getPortalPage = new GetPortalPage(base);
  const getEnrollmentPage = new GetEnrollmentPage(base);
  const registerPaymentMethod = new RegisterPaymentMethod(base);
  const cash = paymentInstructionUseCases(base);
  const reminders = reminderUseCases({ ...base, dispatchOutbox });
  return {
    commands: {
      authenticateRequest: new AuthenticateRequest(base),
      login: new Login(base),
      refreshSession: new RefreshSession(base),
      createClient,
      updateCompany: new UpdateCompany(base),
      rotateApiKey: new RotateApiKey(base),
      disableClient: new DisableClient(base),
      bootstrapDemoTenant: new BootstrapDemoTenant({ ...base, createClient }),
      setOrganizationClock: new SetOrganizationClock(base),
      createContact: new CreateContact(base),
      updateContact: new UpdateContact(base),
      createProduct: new CreateProduct(base),
      updateProduct: new UpdateProduct(base),
      deleteProduct: new DeleteProduct(base),
      createDebt: new CreateDebt(base),
      createDebtBatch: new CreateDebtBatch(base),
      updateDebt: new UpdateDebt(base),
      cancelDebt: new CancelDebt(base),
      payDebt: new PayDebt(base),
      createPaymentLink: new CreatePaymentLink(base),
      updatePaymentLink: new UpdatePaymentLink(base),
      cancelPaymentLink: new CancelPaymentLink(base),
      payPaymentLink: new PayPaymentLink(base),
      createSubscription: new CreateSubscription({ ...base, dispatchOutbox }),
      updateSubscription: new UpdateSubscription(base),
      changeSubscriptionState: new ChangeSubscriptionState({ ...base, dispatchOutbox }),
      registerPaymentMethod,
      enrollAdhesion,
      cancelAdhesion: new CancelAdhesion(base),
      createWebhookEndpoint: new CreateWebhookEndpoint(base),
      updateWebhookEndpoint: new UpdateWebhookEndpoint(base),
      deleteWebhookEndpoint: new DeleteWebhookEndpoint(base),
      rotateWebhookEndpointSecret: new RotateWebhookEndpointSecret(base),
      testWebhookEndpoint: new TestWebhookEndpoint(base),
      redeliverEvent: new RedeliverEvent(base),
      payThroughPortal: new PayThroughPortal({ ...base, getPortalPage }),
      ...cash.commands,
      instructThroughPortal: new InstructThroughPortal({ getPortalPage, createPaymentInstruction: cash.commands.createPaymentInstruction }),
      issueEnrollmentLink: new IssueEnrollmentLink(base),
      enrollThroughPage: new EnrollThroughPage({ ...base, getEnrollmentPage, registerPaymentMethod }),
      setRateLimit: new SetRateLimit(base),
      ...reminders.commands,
    },
    queries: {
      listClients: new ListClients(base),
      getContact: new GetContact(base),
      listContacts: new ListContacts(base),
      getProduct: new GetProduct(base),
      listProducts: new ListProducts(base),
      getDebt: new GetDebt(base),
      listDebts,
      getPaymentLink: new GetPaymentLink(base),
      listPaymentLinks: new ListPaymentLinks(base),
      listLinkPayments: new ListLinkPayments({ ...base, listDebts }),
      getSubscription: new GetSubscription(base),
      listSubscriptions: new ListSubscriptions(base),
      listSubscriptionDebts: new ListSubscriptionDebts({ ...base, listDebts }),
      listPaymentMethods: new ListPaymentMethods(base),
      listEvents: new ListEvents(base),
      getEvent: new GetEvent(base),
      getWebhookEndpoint: new GetWebhookEndpoint(base),
      listWebhookEndpoints: new ListWebhookEndpoints(base),
      webhookDeliveryStats: new WebhookDeliveryStats(base),
      getPortalPage,
      getPortalReceipt: new GetPortalReceipt(base),
      ...cash.queries,
      getInstructionPage: new GetInstructionPage(base),
      getEnrollmentPage,
      readAuditLog: new ReadAuditLog(base),
      ...reminders.queries,
    },
    jobs: {
      purgeExpiredRefreshTokens: new PurgeExpiredRefreshTokens(base),
      markOverdueDebts: new MarkOverdueDebts(base),
      markExpiredPaymentLinks: new MarkExpiredPaymentLinks(base),
      ...cash.jobs,
      generateSubscriptionCycles: new GenerateSubscriptionCycles(base),
      dispatchOutbox,
      executeDueDebits,
      requestAdhesion: new RequestAdhesion({ ...base, enrollAdhesion, executeDueDebits }),
      markEndedSubscriptions: new MarkEndedSubscriptions(base),
      fanOutEvents,
      dispatchWebhooks: new DispatchWebhooks({ ...base, fanOutEvents }),
      deliverWebhook: new DeliverWebhook(base),
      ...reminders.jobs,
    },
  };
}
