import { parseArgs } from 'node:util';
import type { Application } from '../../internal/application';
import type { AuditActor, AuditRecord } from '../../internal/audit/audit-entry';
import { isCurrency } from '../../internal/shared/currency';
import { DomainError, InvalidRequestError } from '../../internal/shared/errors';
import type { CompanySettings } from '../../internal/tenancy/company';
import type { PaymentPortal } from '../../ports/payment-portal';

export interface CliResult {
  exitCode: number;
  stdout: string;
}

export const USAGE = `Usage: npm run admin -- <command> [options] [--json]

  create-client  --organization <name> --username <u> --password <p>
                 [--company <CODE>]... [--default-currency <ISO>] [--portal-url <url>]
                 [--direct-debit] [--direct-debit-modality] [--private-links]
  update-company --company <CODE> [--direct-debit on|off] [--direct-debit-modality on|off]
                 [--private-links on|off] [--default-currency <ISO>] [--portal-url <url>]
  list-clients
  rotate-api-key --username <u> [--kind facade|login]
  disable-client --username <u>
  enrollment-link --company <CODE> --external-client-id <id> [--currency <ISO>] [--expires-in-hours <h>]
  set-rate-limit --organization <id|name> (--capacity <N> --refill-per-second <R> | --default)
  audit-log      --organization <id|name> [--since <RFC 3339>] [--resource <id>] [--limit <N>]
  reminders      --company <CODE> --date <YYYY-MM-DD>
`;

/** Who runs the CLI: recorded as the operator of every change it makes (docs/operations.md). */
export interface AdminContext {
  operator: string;
  /** The hosted portal: enrollment-link signs its URL with it. */
  portal?: PaymentPortal;
}


/**
 * The operator CLI (decisions.md section 3): argv → one use case → one answer. With --json the
 * answer is exactly one JSON object on stdout, errors included (`{ "error": { code, message } }`).
 */
export async function runAdminCommand(app: Application, argv: string[], context: AdminContext = { operator: 'operator' }): Promise<CliResult> {
  const [command, ...rest] = argv;
  const json = rest.includes('--json');
  const actor: AuditActor = { type: 'operator', name: context.operator };
  try {
    const result = await dispatch(app, command, rest.filter((a) => a !== '--json'), actor, context);
    const text = command === 'audit-log' ? auditLines(result as AuditLogOutput) : command === 'reminders' ? reminderLines(result as RemindersOutput) : human(result);
    return { exitCode: 0, stdout: json ? JSON.stringify(result) : text };
  } catch (error) {
    const usage = error instanceof UsageError;
    const known = usage || error instanceof DomainError;
    const code = usage ? 'USAGE' : error instanceof DomainError ? error.code : 'INTERNAL_ERROR';
    const message = known ? (error as Error).message : `unexpected failure: ${(error as Error).message}`;
    return {
      exitCode: usage ? 2 : 1,
      stdout: json ? JSON.stringify({ error: { code, message } }) : `error: ${message}\n${usage ? '\n' + USAGE : ''}`,
    };
  }
}

class UsageError extends Error {}

async function dispatch(app: Application, command: string | undefined, args: string[], actor: AuditActor, context: AdminContext): Promise<unknown> {
  switch (command) {
    case 'create-client': {
      const { values } = parse(args, {
        organization: { type: 'string' }, username: { type: 'string' }, password: { type: 'string' },
        company: { type: 'string', multiple: true }, 'default-currency': { type: 'string' }, 'portal-url': { type: 'string' },
        'direct-debit': { type: 'boolean' }, 'direct-debit-modality': { type: 'boolean' }, 'private-links': { type: 'boolean' },
      });
      return app.commands.createClient.execute({
        organization: required(values.organization, 'organization'),
        username: required(values.username, 'username'),
        password: required(values.password, 'password'),
        companies: (values.company as string[] | undefined) ?? [],
        settings: {
          defaultCurrency: currency(values['default-currency']),
          portalUrl: values['portal-url'] as string | undefined,
          directDebitEnabled: values['direct-debit'] === true,
          directDebitModality: values['direct-debit-modality'] === true,
          privateLinks: values['private-links'] === true,
        },
      }, actor);
    }
    case 'update-company': {
      const { values } = parse(args, {
        company: { type: 'string' }, 'default-currency': { type: 'string' }, 'portal-url': { type: 'string' },
        'direct-debit': { type: 'string' }, 'direct-debit-modality': { type: 'string' }, 'private-links': { type: 'string' },
      });
      const settings: Partial<CompanySettings> = {
        defaultCurrency: currency(values['default-currency']),
        portalUrl: values['portal-url'] as string | undefined,
        directDebitEnabled: onOff(values['direct-debit'], 'direct-debit'),
        directDebitModality: onOff(values['direct-debit-modality'], 'direct-debit-modality'),
        privateLinks: onOff(values['private-links'], 'private-links'),
      };
      const company = await app.commands.updateCompany.execute(required(values.company, 'company'), settings, actor);
      const { id: _id, code, ...settingsAndOwner } = company;
      return { companyCode: code, ...settingsAndOwner };
    }
    case 'list-clients':
      parse(args, {});
      return { clients: await app.queries.listClients.execute() };
    case 'rotate-api-key': {
      const { values } = parse(args, { username: { type: 'string' }, kind: { type: 'string' } });
      const kind = (values.kind as string | undefined) ?? 'facade';
      if (kind !== 'facade' && kind !== 'login') throw new UsageError('--kind must be facade or login');
      return app.commands.rotateApiKey.execute(required(values.username, 'username'), kind, actor);
    }
    case 'disable-client': {
      const { values } = parse(args, { username: { type: 'string' } });
      return app.commands.disableClient.execute(required(values.username, 'username'), actor);
    }
    case 'set-rate-limit': {
      const { values } = parse(args, {
        organization: { type: 'string' }, capacity: { type: 'string' }, 'refill-per-second': { type: 'string' }, default: { type: 'boolean' },
      });
      const organization = required(values.organization, 'organization');
      if (values.default === true) {
        if (values.capacity !== undefined || values['refill-per-second'] !== undefined) {
          throw new UsageError('--default takes no --capacity or --refill-per-second');
        }
        return app.commands.setRateLimit.execute(organization, null, actor);
      }
      const capacity = number(required(values.capacity, 'capacity'), 'capacity');
      const refillPerSecond = number(required(values['refill-per-second'], 'refill-per-second'), 'refill-per-second');
      return app.commands.setRateLimit.execute(organization, { capacity, refillPerSecond }, actor);
    }
    case 'audit-log': {
      const { values } = parse(args, {
        organization: { type: 'string' }, since: { type: 'string' }, resource: { type: 'string' }, limit: { type: 'string' },
      });
      const since = values.since === undefined ? undefined : rfc3339(values.since as string, 'since');
      const limit = values.limit === undefined ? undefined : number(values.limit as string, 'limit');
      const log = await app.queries.readAuditLog.execute({
        organization: required(values.organization, 'organization'),
        since,
        resourceId: values.resource as string | undefined,
        limit,
      });
      return { ...log, records: log.records.map(presentRecord) } satisfies AuditLogOutput;
    }
    case 'enrollment-link': {
      const { values } = parse(args, {
        company: { type: 'string' }, 'external-client-id': { type: 'string' }, currency: { type: 'string' }, 'expires-in-hours': { type: 'string' },
      });
      if (!context.portal) throw new UsageError('enrollment-link needs the payment portal');
      const hours = values['expires-in-hours'] === undefined ? undefined : Number(values['expires-in-hours']);
      if (hours !== undefined && !(hours > 0)) throw new UsageError('--expires-in-hours takes a positive number');
      const grant = await app.commands.issueEnrollmentLink.forCompany(required(values.company, 'company'), {
        externalClientId: required(values['external-client-id'], 'external-client-id'),
        currency: currency(values.currency, 'currency') ?? undefined,
        expiresInSeconds: hours === undefined ? undefined : Math.round(hours * 3600),
      });
      const { companyCode, externalClientId } = grant;
      return { url: context.portal.enrollmentUrl(grant), companyCode, externalClientId, currency: grant.currency, expiresAt: grant.expiresAt.toISOString() };
    }
    case 'reminders': {
      const { values } = parse(args, { company: { type: 'string' }, date: { type: 'string' } });
      const due = await app.queries.remindersDue.execute(required(values.company, 'company'), required(values.date, 'date'));
      return {
        companyCode: due.company.code,
        date: values.date as string,
        policy: { enabled: due.policy.enabled, timeZone: due.policy.timeZone, sendWindow: due.policy.sendWindow, steps: due.policy.steps },
        reminders: due.lines.map((l) => ({ ...l, sendAt: l.sendAt.toISOString() })),
      } satisfies RemindersOutput;
    }
    default:
      throw new UsageError(command ? `unknown command ${command}` : 'a command is required');
  }
}

type Options = NonNullable<Parameters<typeof parseArgs>[0]>['options'];

function parse(args: string[], options: Options): { values: Record<string, string | boolean | string[] | undefined> } {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }) as { values: Record<string, string | boolean | string[] | undefined> };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function required(value: unknown, name: string): string {
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

function onOff(value: unknown, name: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'on' || value === 'off') return value === 'on';
  throw new UsageError(`--${name} takes on or off`);
}

function currency(value: unknown, field = 'default-currency'): CompanySettings['defaultCurrency'] | undefined {
  if (value === undefined) return undefined;
  if (!isCurrency(value)) throw InvalidRequestError.field(field, 'must be MXN, ARS, PEN, COP, CLP or USD');
  return value;
}

function number(text: string, name: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value)) throw InvalidRequestError.field(name, 'must be a number');
  return value;
}

const RFC_3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;

function rfc3339(text: string, name: string): Date {
  const instant = new Date(text);
  if (!RFC_3339.test(text) || Number.isNaN(instant.getTime())) throw InvalidRequestError.field(name, 'must be an RFC 3339 date-time');
  return instant;
}

type PresentedRecord = Omit<AuditRecord, 'at'> & { at: string };

interface AuditLogOutput {
  organizationId: number;
  organizationName: string;
  records: PresentedRecord[];
}

function presentRecord(record: AuditRecord): PresentedRecord {
  return { ...record, at: record.at.toISOString() };
}

/** One line per change: when, who, what, which resource, and the details or event id. */
function auditLines(log: AuditLogOutput): string {
  const who = (r: PresentedRecord): string =>
    r.actor.type === 'client'
      ? `client ${r.actor.clientUsername ?? r.actor.clientUserId} (${r.actor.apiKeyPrefix ?? 'no key'})`
      : `${r.actor.type} ${r.actor.name}`;
  const lines = log.records.map((r) =>
    [r.at, who(r), r.action, `${r.resourceType} ${r.resourceId}`, r.requestId ?? '-', r.eventId ?? JSON.stringify(r.details)].join('  '),
  );
  const header = `audit log of organization ${log.organizationId} (${log.organizationName}), newest first: ${log.records.length} record(s)`;
  return [header, ...lines].join('\n') + '\n';
}

function human(result: unknown): string {
  return JSON.stringify(result, null, 2) + '\n';
}

interface RemindersOutput {
  companyCode: string;
  date: string;
  policy: { enabled: boolean; timeZone: string; sendWindow: { from: string; to: string }; steps: { offsetDays: number; channels: string[] }[] };
  reminders: { debtId: string; offsetDays: number; channel: string; dueDate: string; sendAt: string; state: string; reason: string | null }[];
}

/** What a company's policy sends on a local day: one line per debt, step and channel. */
function reminderLines(out: RemindersOutput): string {
  const { policy } = out;
  const header = `reminders of ${out.companyCode} on ${out.date} (${policy.timeZone}, window ${policy.sendWindow.from}-${policy.sendWindow.to}` +
    `${policy.enabled ? '' : ', policy DISABLED'}): ${out.reminders.length} line(s)`;
  const lines = out.reminders.map((r) => [r.sendAt, `offset ${r.offsetDays}`, r.channel, r.debtId, `due ${r.dueDate}`, r.state, r.reason ?? ''].join('  ').trimEnd());
  return [header, ...lines].join('\n') + '\n';
}
