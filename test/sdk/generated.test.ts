import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { publishedOpenApiDocument } from '../../adapters/http/published-document';
import { generateFiles, operationRows } from '../../sdk/typescript/scripts/generator.js';

/**
 * The SDK cannot drift from the API: its generated files must equal a fresh generation from the
 * document the API serves, and the SDK must compile (strict, web platform types only) against
 * them. A synthetic document in the shape the exact one is taking (named components, `$ref`s,
 * `x-idempotent`, an `Idempotency-Key` header, batch and partial answers, a `webhooks` section)
 * checks that the generator and the SDK's types already handle that structure.
 */

const exec = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');
const SDK = path.join(ROOT, 'sdk/typescript');
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');

function firstDifference(actual: string, expected: string): string {
  const a = actual.split('\n');
  const e = expected.split('\n');
  const line = a.findIndex((text, i) => text !== e[i]);
  const at = line < 0 ? Math.min(a.length, e.length) : line;
  return `line ${at + 1}: checked in ${JSON.stringify(a[at])}, generated ${JSON.stringify(e[at])}`;
}

describe('SDK generated files', function () {
  this.timeout(180_000);

  it('equal a fresh generation from the served OpenAPI document (else: npm run sdk:generate, and commit)', async () => {
    const fresh = await generateFiles(publishedOpenApiDocument('http://localhost:3000'));
    for (const [file, generated] of [['openapi.ts', fresh.openapiTs], ['operations.ts', fresh.operationsTs]] as const) {
      const checkedIn = fs.readFileSync(path.join(SDK, 'src/generated', file), 'utf8');
      expect(checkedIn === generated, `sdk/typescript/src/generated/${file} is stale (npm run sdk:generate): ${checkedIn === generated ? '' : firstDifference(checkedIn, generated)}`).to.equal(true);
    }
  });

  it('list every operation of the document, each with an operationId', () => {
    const document = publishedOpenApiDocument('http://localhost:3000');
    const listed = Object.entries(document.paths).flatMap(([p, item]) => Object.keys(item as object).map((m) => `${m.toUpperCase()} ${p}`));
    const rows = operationRows(document);
    expect(rows.map((r) => `${r.method} ${r.path}`)).to.deep.equal(listed);
    expect(new Set(rows.map((r) => r.operationId)).size).to.equal(rows.length);
  });

  it('the SDK compiles, strict, against them (tsc -p sdk/typescript/tsconfig.json --noEmit)', async () => {
    await exec(process.execPath, [TSC, '-p', path.join(SDK, 'tsconfig.json'), '--noEmit'], { cwd: ROOT }).catch((error) => {
      throw new Error(`tsc refused the SDK:\n${error.stdout}${error.stderr}`);
    });
  });

  describe('a document in the exact shape (components, $ref, x-idempotent, webhooks)', () => {
    it('the table reads $refs, x-idempotent, the Idempotency-Key header, the batch branch and pages through allOf', () => {
      const rows = Object.fromEntries(operationRows(futureDocument()).map((r) => [r.operationId, r]));
      expect(rows.createDebt).to.deep.include({ create: true, idempotent: true, idempotencyKey: true, batchProperty: 'debts', paginated: false, successStatuses: [201, 207] });
      expect(rows.createPaymentLink).to.deep.include({ create: true, idempotent: false, idempotencyKey: false });
      expect(rows.listDebts).to.deep.include({ paginated: true, namespace: 'debts', idempotent: true, queryParams: ['page', 'status'] });
      expect(rows.getDebt).to.deep.include({ pathParams: ['id'], paginated: false, idempotent: false }); // x-idempotent: false wins over GET
      expect(rows.login).to.deep.include({ authenticated: false, hasBody: true });
      expect(rows.updateSubscription).to.deep.include({ successStatuses: [200, 207], authenticated: true });
    });

    it('the SDK compiles against its generated types, and webhook events are a union over the document\'s webhooks', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sdk-future-'));
      try {
        fs.cpSync(path.join(SDK, 'src'), path.join(dir, 'src'), { recursive: true });
        const files = await generateFiles(futureDocument());
        fs.writeFileSync(path.join(dir, 'src/generated/openapi.ts'), files.openapiTs);
        fs.writeFileSync(path.join(dir, 'src/generated/operations.ts'), files.operationsTs);
        expect(files.operationsTs).to.include('"SOMETHING_NEW"');
        fs.writeFileSync(path.join(dir, 'src/probe.ts'), FUTURE_PROBE);
        const tsconfig = JSON.parse(fs.readFileSync(path.join(SDK, 'tsconfig.json'), 'utf8').replace(/^\s*\/\/.*$/gm, ''));
        fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ ...tsconfig, compilerOptions: { ...tsconfig.compilerOptions, noUnusedLocals: false } }));
        fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
        await exec(process.execPath, [TSC, '-p', path.join(dir, 'tsconfig.json'), '--noEmit'], { cwd: dir }).catch((error) => {
          throw new Error(`tsc refused the SDK on the synthetic document:\n${error.stdout}${error.stderr}`);
        });
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});

/** Type-level checks compiled against the synthetic document's generated types. */
const FUTURE_PROBE = `
import { CollectionsClient, CollectionsPartialUpdateError, type ErrorCode, verifyWebhook } from './index.js';

export async function probe(c: CollectionsClient, raw: string, header: string) {
  const event = await verifyWebhook(raw, header, 'whsec_x');
  if (event.type === 'debt.paid') {
    const status: 'PENDING' | 'PAID' = event.data.object.status;
    void status;
  } else {
    const name: string = event.data.object.name;
    void name;
  }
  const single = await c.createDebt({ externalClientId: 'a', amount: 1 });
  const id: string = single.debtId;
  const batch = await c.createDebt({ debts: [{ externalRequestId: 'x', externalClientId: 'a', amount: 1 }] });
  const index: number = batch.errors[0]!.index;
  const first: string | undefined = batch.data[0]?.debtId;
  const page = await c.listDebts({ status: 'PAID' });
  const total: number = page.meta.total;
  for await (const debt of c.debts.list()) void debt.debtId;
  const session = await c.login({ clientUsername: 'u', password: 'p' });
  const token: string = session.accessToken;
  const code: ErrorCode = 'SOMETHING_NEW';
  try {
    await c.updateSubscription('sub_1', { amount: 2 });
  } catch (error) {
    if (error instanceof CollectionsPartialUpdateError) void error.data;
  }
  // @ts-expect-error not a status of the document
  await c.listDebts({ status: 'NOPE' });
  return [id, index, first, total, token, code];
}
`;

/** A small document in the structure the exact one is taking. */
function futureDocument() {
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const json = (schema: object) => ({ content: { 'application/json': { schema } } });
  const error = (description: string) => ({ description, ...json(ref('ErrorEnvelope')) });
  const security = [{ apiKey: [], accessToken: [] }];
  const idPath = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
  return {
    openapi: '3.1.0',
    info: { title: 'future', version: '1' },
    paths: {
      '/auth/login': {
        post: {
          operationId: 'login',
          requestBody: { required: true, ...json({ type: 'object', required: ['clientUsername', 'password'], properties: { clientUsername: { type: 'string' }, password: { type: 'string' } } }) },
          responses: { 200: { description: 'ok', ...json(ref('Session')) }, 401: error('AUTHENTICATION_FAILED') },
        },
      },
      '/auth/refresh': {
        post: {
          operationId: 'refreshSession',
          requestBody: { required: true, ...json({ type: 'object', required: ['refreshToken'], properties: { refreshToken: { type: 'string' } } }) },
          responses: { 200: { description: 'ok', ...json(ref('Session')) }, 401: error('AUTHENTICATION_FAILED') },
        },
      },
      '/v2/debts': {
        post: {
          operationId: 'createDebt',
          'x-idempotent': true,
          security,
          parameters: [{ $ref: '#/components/parameters/IdempotencyKey' }],
          requestBody: { required: true, ...json({ oneOf: [ref('DebtCreate'), ref('DebtBatchCreate')] }) },
          responses: {
            201: { description: 'created', ...json({ oneOf: [ref('DebtResponse'), ref('DebtBatchResponse')] }) },
            207: { description: 'some failed', ...json(ref('DebtBatchResponse')) },
            422: error('BUSINESS_RULE_VIOLATION'),
          },
        },
      },
      '/debts': {
        get: {
          operationId: 'listDebts',
          security,
          parameters: [
            { name: 'page', in: 'query', schema: { type: 'integer' } },
            { name: 'status', in: 'query', schema: ref('DebtStatus') },
          ],
          responses: { 200: { description: 'ok', ...json({ allOf: [{ type: 'object', required: ['data'], properties: { data: { type: 'array', items: ref('Debt') } } }, ref('PageEnvelope')] }) } },
        },
      },
      '/debts/{id}': {
        parameters: [idPath],
        get: { operationId: 'getDebt', 'x-idempotent': false, security, responses: { 200: { description: 'ok', ...json(ref('DebtResponse')) }, 404: error('RESOURCE_NOT_FOUND') } },
      },
      '/payment-links': {
        post: {
          operationId: 'createPaymentLink',
          security,
          requestBody: { required: true, ...json({ type: 'object', properties: { amount: { type: 'number' } } }) },
          responses: { 201: { description: 'created', ...json({ type: 'object', required: ['data', 'requestId'], properties: { data: { type: 'object' }, requestId: { type: 'string' } } }) } },
        },
      },
      '/subscriptions/{id}': {
        patch: {
          operationId: 'updateSubscription',
          security,
          parameters: [idPath],
          requestBody: { required: true, ...json({ type: 'object', properties: { amount: { type: 'number' } } }) },
          responses: {
            200: { description: 'ok', ...json(ref('SubscriptionResponse')) },
            207: { description: 'partial', ...json({ allOf: [ref('SubscriptionResponse'), { type: 'object', required: ['error'], properties: { error: ref('ErrorBody') } }] }) },
          },
        },
      },
    },
    webhooks: {
      'debt.paid': { post: { operationId: 'onDebtPaid', requestBody: json(ref('DebtPaidEvent')), responses: { 200: { description: 'ok' } } } },
      'contact.created': { post: { operationId: 'onContactCreated', requestBody: json(ref('ContactCreatedEvent')), responses: { 200: { description: 'ok' } } } },
    },
    components: {
      parameters: { IdempotencyKey: { name: 'Idempotency-Key', in: 'header', schema: { type: 'string' } } },
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        accessToken: { type: 'apiKey', in: 'header', name: 'x-authorization-token' },
      },
      schemas: {
        Session: { type: 'object', required: ['accessToken', 'refreshToken', 'expiresIn', 'requestId'], properties: { accessToken: { type: 'string' }, refreshToken: { type: 'string' }, expiresIn: { type: 'integer' }, requestId: { type: 'string' } } },
        DebtStatus: { type: 'string', enum: ['PENDING', 'PAID'] },
        Debt: { type: 'object', required: ['debtId', 'status', 'amount'], properties: { debtId: { type: 'string' }, status: ref('DebtStatus'), amount: { type: 'number' }, description: { type: ['string', 'null'] } } },
        DebtCreate: { type: 'object', required: ['amount', 'externalClientId'], additionalProperties: false, properties: { externalClientId: { type: 'string' }, amount: { type: 'number' } } },
        DebtBatchCreate: { type: 'object', required: ['debts'], additionalProperties: false, properties: { debts: { type: 'array', items: { allOf: [ref('DebtCreate'), { type: 'object', required: ['externalRequestId'], properties: { externalRequestId: { type: 'string' } } }] } } } },
        DebtResponse: { type: 'object', required: ['data', 'requestId'], properties: { data: ref('Debt'), requestId: { type: 'string' } } },
        BatchItemError: { type: 'object', required: ['index', 'externalRequestId', 'code', 'message'], properties: { index: { type: 'integer' }, externalRequestId: { type: 'string' }, code: { type: 'string' }, message: { type: 'string' } } },
        DebtBatchResponse: { type: 'object', required: ['data', 'batchId', 'requestId'], properties: { data: { type: 'array', items: ref('Debt') }, errors: { type: 'array', items: ref('BatchItemError') }, batchId: { type: 'string' }, requestId: { type: 'string' } } },
        PageMeta: { type: 'object', required: ['page', 'limit', 'total', 'hasMore'], properties: { page: { type: 'integer' }, limit: { type: 'integer' }, total: { type: 'integer' }, hasMore: { type: 'boolean' } } },
        PageEnvelope: { type: 'object', required: ['meta', 'requestId'], properties: { meta: ref('PageMeta'), requestId: { type: 'string' } } },
        Subscription: { type: 'object', required: ['subscriptionId', 'amount'], properties: { subscriptionId: { type: 'string' }, amount: { type: 'number' } } },
        SubscriptionResponse: { type: 'object', required: ['data', 'requestId'], properties: { data: ref('Subscription'), requestId: { type: 'string' } } },
        ErrorBody: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string', enum: ['INVALID_REQUEST', 'PARTIAL_UPDATE', 'SOMETHING_NEW'] }, message: { type: 'string' } } },
        ErrorEnvelope: { type: 'object', required: ['error', 'requestId'], properties: { error: ref('ErrorBody'), requestId: { type: 'string' } } },
        Contact: { type: 'object', required: ['contactId', 'name'], properties: { contactId: { type: 'string' }, name: { type: 'string' } } },
        DebtPaidEvent: { type: 'object', required: ['eventId', 'type', 'data'], properties: { eventId: { type: 'string' }, type: { const: 'debt.paid' }, data: { type: 'object', required: ['object'], properties: { object: ref('Debt') } } } },
        ContactCreatedEvent: { type: 'object', required: ['eventId', 'type', 'data'], properties: { eventId: { type: 'string' }, type: { const: 'contact.created' }, data: { type: 'object', required: ['object'], properties: { object: ref('Contact') } } } },
      },
    },
  };
}
