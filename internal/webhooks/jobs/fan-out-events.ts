import type { Clock } from '../../../ports/clock';
import type { UnitOfWork } from '../../../ports/unit-of-work';
import { requireDeps } from '../../shared/use-case-deps';
import { type NewDelivery, newDelivery } from '../delivery';
import { advanceCursor } from '../fan-out-cursor';
import { subscribes } from '../webhook-endpoint';

/** Events read per turn. */
export const FAN_OUT_BATCH = 500;

export interface FanOutTurn {
  events: number;
  deliveries: number;
  /** The turn read a full batch: more events may be waiting. */
  more: boolean;
}

/**
 * One turn of the fan-out, on the workers: under the cursor's lock (a process that finds it
 * taken skips its turn), reads the events written since the cursor (and those that committed
 * late, see fan-out-cursor.ts) and creates one PENDING delivery per event and enabled endpoint
 * of its company that subscribes to its type, then moves the cursor, all in one transaction. A
 * delivery exists once per event and endpoint (a unique key), so a turn repeated after a crash
 * creates nothing twice. The API never runs this: its requests only write the event rows. While
 * no company has an enabled endpoint a turn only moves the cursor to the end of the log.
 */
export class FanOutEvents {
  constructor(private readonly deps: { uow: UnitOfWork; clock: Clock }) {
    requireDeps('FanOutEvents', deps);
  }

  /** Null when another process holds the cursor. */
  execute(): Promise<FanOutTurn | null> {
    return this.deps.uow.run(async ({ webhookDeliveries, webhookEndpoints, events }) => {
      const cursor = await webhookDeliveries.lockCursor();
      if (!cursor) return null;
      const now = this.deps.clock.now();
      // No endpoint anywhere: skip to the end of the log without reading it. (The last id is read
      // before looking for endpoints: one created after that look only wants later events.)
      const lastId = await events.lastId();
      if (!(await webhookEndpoints.anyEnabled())) {
        if (lastId > cursor.lastRowId || cursor.gaps.length > 0) {
          await webhookDeliveries.saveCursor({ lastRowId: Math.max(lastId, cursor.lastRowId), gaps: [] }, now);
        }
        return { events: 0, deliveries: 0, more: false };
      }
      const fresh = await events.headersAfter(cursor.lastRowId, FAN_OUT_BATCH);
      const late = cursor.gaps.length > 0 ? await events.headersIn(cursor.gaps) : [];
      const all = [...late, ...fresh];
      const deliveries: NewDelivery[] = [];
      if (all.length > 0) {
        const endpoints = await webhookEndpoints.enabledOfCompanies([...new Set(all.map((e) => e.companyId))]);
        for (const event of all) {
          for (const endpoint of endpoints) {
            if (endpoint.companyId !== event.companyId || event.id <= endpoint.sinceEventRowId || !subscribes(endpoint, event.type)) continue;
            deliveries.push(newDelivery({ rowId: event.id, companyId: event.companyId, resourceId: event.resourceId }, endpoint.id, now));
          }
        }
        await webhookDeliveries.insertMissing(deliveries);
      }
      const next = advanceCursor(cursor, fresh.map((e) => e.id), late.map((e) => e.id), now.getTime());
      if (next.lastRowId !== cursor.lastRowId || JSON.stringify(next.gaps) !== JSON.stringify(cursor.gaps)) {
        await webhookDeliveries.saveCursor(next, now);
      }
      return { events: all.length, deliveries: deliveries.length, more: fresh.length === FAN_OUT_BATCH };
    });
  }
}
