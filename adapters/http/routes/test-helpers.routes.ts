import type { Application } from '../../../internal/application';
import { InvalidRequestError } from '../../../internal/shared/errors';
import { isWireInstant, toIsoUtc } from '../../../internal/shared/calendar-date';
import type { ClockState } from '../../../internal/tenancy/commands/set-organization-clock';
import { route } from '../route';
import { clockBody, clockSchema } from '../schemas/auth.schemas';

const present = (state: ClockState) => ({ now: toIsoUtc(state.now), frozen: state.frozen });

/** Sandbox helpers (never mounted in production) → the same use cases as real traffic. */
export function testHelperRoutes(app: Application) {
  const { setOrganizationClock } = app.commands;
  return [
    route<{ now: string }>({
      method: 'put', path: '/test-helpers/clock', operationId: 'setClock', tag: 'Sandbox test helpers', summary: "Freeze the organization's clock at an instant",
      description: 'Sandbox only. From now on every time rule of the organization (overdue, expiry, ended, "in the future", createdAt) uses this instant.',
      auth: 'facade', body: clockBody, response: clockSchema, errors: [400, 401],
      handle: async ({ body, scope }) => {
        const instant = new Date(body.now);
        if (Number.isNaN(instant.getTime())) throw InvalidRequestError.field('now', 'must be an RFC 3339 date-time');
        if (!isWireInstant(instant.getTime())) throw InvalidRequestError.field('now', 'must be from 0000-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z in UTC');
        return { data: present(await setOrganizationClock.execute(instant, scope)) };
      },
    }),
    route({
      method: 'delete', path: '/test-helpers/clock', operationId: 'resetClock', tag: 'Sandbox test helpers', summary: 'Back to real time',
      description: "Sandbox only. The organization's time rules use real time again.",
      auth: 'facade', response: clockSchema, errors: [401],
      handle: async ({ scope }) => ({ data: present(await setOrganizationClock.execute(null, scope)) }),
    }),
  ];
}
