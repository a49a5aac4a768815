import type { JsonSchema } from '../validation';
import { companyCodeProperty, requestIdSchema } from './common.schemas';
import { named } from './named';

export const loginBody: JsonSchema = named('LoginRequest', {
  type: 'object',
  required: ['clientUsername', 'password'],
  properties: {
    clientUsername: { type: 'string', maxLength: 200 },
    password: { type: 'string', maxLength: 1000 },
  },
  examples: [{ clientUsername: 'acme', password: 's3cret-pass' }],
});

export const refreshBody: JsonSchema = named('RefreshSessionRequest', {
  type: 'object',
  required: ['refreshToken'],
  properties: { refreshToken: { type: 'string', maxLength: 200, description: 'Single use: the answer carries its replacement' } },
  examples: [{ refreshToken: 'rt_9fK2mQ7xLw4ZpT8vRb3NcY6s' }],
});

/** The platform login answers at the top level, not under `data` (decisions.md section 2). */
export const sessionSchema: JsonSchema = named('Session', {
  type: 'object',
  required: ['accessToken', 'refreshToken', 'expiresIn', 'requestId'],
  description: 'The token pair, at the top level of the body (not under data).',
  properties: {
    accessToken: { type: 'string', description: 'Send it as x-authorization-token (without Bearer)' },
    refreshToken: { type: 'string', description: 'Single use, 30 days: POST /auth/refresh exchanges it for a new pair' },
    expiresIn: { type: 'integer', description: 'Seconds the access token lives (14400)' },
    requestId: requestIdSchema,
  },
  examples: [{
    accessToken: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxIiwib3JnIjoxfQ.c2lnbmF0dXJl', refreshToken: 'rt_9fK2mQ7xLw4ZpT8vRb3NcY6s',
    expiresIn: 14400, requestId: 'req_8QmZk2VbX1sN4pL7rT0yWc3d',
  }],
});

export const clockBody: JsonSchema = named('SetClockRequest', {
  type: 'object',
  required: ['now'],
  additionalProperties: false,
  properties: { now: { type: 'string', format: 'date-time', description: 'RFC 3339' }, ...companyCodeProperty },
  examples: [{ now: '2026-12-16T09:00:00Z' }],
});

export const clockSchema: JsonSchema = named('SandboxClock', {
  type: 'object',
  required: ['now', 'frozen'],
  properties: {
    now: { type: 'string', format: 'date-time', description: "The organization's current instant" },
    frozen: { type: 'boolean', description: 'true: every time rule of the organization uses `now`; false: real time' },
  },
  examples: [{ now: '2026-12-16T09:00:00.000Z', frozen: true }],
});
