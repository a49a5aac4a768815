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
 * them; a probe checks what the types tell an integrator (batch and single answers, pages,
 * webhook events as a union over the document's `webhooks` section).
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

  it('the table reads what the document says: x-idempotent, the Idempotency-Key header, the batch branch, pages, the login key', () => {
    const rows = Object.fromEntries(operationRows(publishedOpenApiDocument('http://localhost:3000')).map((r) => [r.operationId, r]));
    expect(rows.createDebt).to.deep.include({ create: true, idempotent: true, idempotencyKey: true, batchProperty: 'debts', paginated: false, successStatuses: [201, 207] });
    expect(rows.createPaymentLink).to.deep.include({ create: true, idempotent: false, idempotencyKey: true });
    expect(rows.createContact).to.deep.include({ create: true, idempotent: false, idempotencyKey: false });
    expect(rows.listDebts).to.deep.include({ paginated: true, namespace: 'debts', idempotent: true });
    expect(rows.listDebts!.queryParams).to.include.members(['page', 'limit', 'status']).and.not.include('companyCode');
    expect(rows.listPaymentMethods).to.deep.include({ paginated: false, namespace: null });
    expect(rows.getDebt).to.deep.include({ pathParams: ['id'], queryParams: [], paginated: false, idempotent: true });
    expect(rows.login).to.deep.include({ authenticated: false, hasBody: true });
    expect(rows.updateSubscription).to.deep.include({ successStatuses: [200, 207], authenticated: true });
  });

  it('types the answers and the webhook events from the document (a probe compiles against the SDK)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sdk-probe-'));
    try {
      fs.cpSync(path.join(SDK, 'src'), path.join(dir, 'src'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'src/probe.ts'), PROBE);
      const tsconfig = JSON.parse(fs.readFileSync(path.join(SDK, 'tsconfig.json'), 'utf8').replace(/^\s*\/\/.*$/gm, ''));
      fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ ...tsconfig, compilerOptions: { ...tsconfig.compilerOptions, noUnusedLocals: false } }));
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
      await exec(process.execPath, [TSC, '-p', path.join(dir, 'tsconfig.json'), '--noEmit'], { cwd: dir }).catch((error) => {
        throw new Error(`tsc refused the probe:\n${error.stdout}${error.stderr}`);
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Type-level checks compiled against the generated types: what an integrator's editor sees. */
const PROBE = `
import { CollectionsClient, CollectionsPartialUpdateError, type ErrorCode, verifyWebhook } from './index.js';

export async function probe(c: CollectionsClient, raw: string, header: string) {
  const event = await verifyWebhook(raw, header, ['whsec_new', 'whsec_old']);
  if (event.type === 'debt.paid') {
    const status: 'PENDING' | 'PARTIALLY_PAID' | 'PAID' | 'OVERDUE' | 'CANCELLED' = event.data.object.status;
    const contactId: string | undefined = event.data.object.contact?.contactId;
    void status, contactId;
  } else if (event.type === 'contact.created') {
    const name: string = event.data.object.name;
    void name;
  }
  const single = await c.createDebt({ externalClientId: 'a', amount: 1, dueDate: '2031-01-01' });
  const id: string = single.debtId;
  const batch = await c.createDebt({ debts: [{ externalRequestId: 'x', externalClientId: 'a', amount: 1, dueDate: '2031-01-01' }] });
  const index: number = batch.errors[0]!.index;
  const first: string | undefined = batch.data[0]?.debtId;
  const page = await c.listDebts({ status: 'PAID' });
  const total: number = page.meta.total;
  const capped: boolean = (await c.listContacts()).meta.capped;
  for await (const debt of c.debts.list({ status: 'OVERDUE' })) void debt.debtId;
  const methods = await c.listPaymentMethods({ externalClientId: 'a' });
  const masked: string | undefined = methods[0]?.maskedReference;
  const session = await c.login({ clientUsername: 'u', password: 'p' });
  const token: string = session.accessToken;
  const code: ErrorCode = 'PARTIAL_UPDATE';
  try {
    await c.updateSubscription('sub_1', { amount: 2 });
  } catch (error) {
    if (error instanceof CollectionsPartialUpdateError) void error.data;
  }
  // @ts-expect-error not a status of the document
  await c.listDebts({ status: 'NOPE' });
  // @ts-expect-error dueDate is required
  await c.createDebt({ amount: 1 });
  // @ts-expect-error not an error code of the API
  const wrong: ErrorCode = 'SOMETHING_NEW';
  return [id, index, first, total, capped, masked, token, code, wrong];
}
`;
