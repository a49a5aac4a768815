import type { Knex } from 'knex';
import type { MessageChannel } from '../../../ports/message-sender';
import type { SandboxMessage, SandboxMessageLog } from '../../../ports/sandbox-message-log';
import { REMINDER_ID_PREFIX } from '../../../internal/reminders/reminder';
import { dialectOf } from './connection';
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
    const reference = dialectOf(this.db) === 'mysql' ? 'CONCAT(?, code)' : '? || code';
    const references = this.db('reminders').where({ company_id: companyId, debt_id: debtId }).select(this.db.raw(reference, [REMINDER_ID_PREFIX]));
    const rows = await this.db('sandbox_messages').whereIn('reference', references).orderBy([{ column: 'sent_at' }, { column: 'id' }]);
    return rows.map(toMessage);
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
