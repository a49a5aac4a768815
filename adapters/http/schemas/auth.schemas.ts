import type { JsonSchema } from '../validation';

export const loginBody: JsonSchema = {
  type: 'object',
  required: ['clientUsername', 'password'],
  properties: {
    clientUsername: { type: 'string', maxLength: 200 },
    password: { type: 'string', maxLength: 1000 },
  },
};

export const refreshBody: JsonSchema = {
  type: 'object',
  required: ['refreshToken'],
  properties: { refreshToken: { type: 'string', maxLength: 200 } },
};

export const sessionSchema: JsonSchema = {
  type: 'object',
  properties: {
    accessToken: { type: 'string' },
    refreshToken: { type: 'string' },
    expiresIn: { type: 'integer', description: 'seconds (14400)' },
  },
};

export const clockBody: JsonSchema = {
  type: 'object',
  required: ['now'],
  additionalProperties: false,
  properties: { now: { type: 'string', format: 'date-time' } },
};
