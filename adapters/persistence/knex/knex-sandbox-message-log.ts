import type { Knex } from 'knex';
import type { MessageChannel } from '../../../ports/message-sender';
import type { SandboxMessage, SandboxMessageLog } from '../../../ports/sandbox-message-log';
import { REMINDER_ID_PREFIX } from '../../../internal/reminders/reminder';
import { sqlDialect } from './dialect';
import { fromMillis, toMillis } from './rows/columns';

type Row = Record<string, any>;

/** The sandbox sender's table: one row per reference, so a message handed over twice is kept (and counted) once. */
export class KnexSandboxMessageLog implements SandboxMessageLog {
  constructor(private readonly db: Knex | Knex.Transaction) {}

  async record(message: SandboxMessage): Promise<SandboxMessage> {
    await this.db('sandbox_messages')
      .insert({
        reference: message.reference,
        channel: message.channel,
        recipient: message.to,
        subject: message.subject,
        body: message.body,
        html: message.html,
        unsubscribe_url: message.unsubscribeUrl,
        provider_message_id: message.providerMessageId,
        sent_at: toMillis(message.sentAt),
      })
      .onConflict('reference')
      .ignore();
    const row = await this.db('sandbox_messages').where({ reference: message.reference }).first();
    return toMessage(row);
  }

  async listOfDebt(companyId: number, debtId: number): Promise<SandboxMessage[]> {
    // The reminder's sentAt (the organization's clock, sandbox-frozen or not) when it has one.
    const reference = sqlDialect(this.db).concat('?', 'r.code');
    const rows = await this.db('reminders as r')
      .join('sandbox_messages as m', 'm.reference', this.db.raw(reference, [REMINDER_ID_PREFIX]))
      .where({ 'r.company_id': companyId, 'r.debt_id': debtId })
      .select('m.*', this.db.raw('coalesce(r.sent_at, m.sent_at) as shown_sent_at'))
      .orderBy([{ column: 'shown_sent_at' }, { column: 'm.id' }]);
    return rows.map((row: Row) => toMessage({ ...row, sent_at: row.shown_sent_at }));
  }

  async countByReference(reference: string): Promise<number> {
    const row = await this.db('sandbox_messages').where({ reference }).count({ n: '*' }).first();
    return Number(row?.n ?? 0);
  }
}

function toMessage(row: Row): SandboxMessage {
  return {
    channel: row.channel as MessageChannel,
    to: row.recipient,
    subject: row.subject ?? null,
    body: row.body,
    html: row.html ?? null,
    reference: row.reference,
    providerMessageId: row.provider_message_id,
    unsubscribeUrl: row.unsubscribe_url ?? null,
    sentAt: fromMillis(row.sent_at),
  };
}
