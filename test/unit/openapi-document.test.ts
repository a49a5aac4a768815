/**
 * The published OpenAPI document: complete (every operation named, described, with examples for
 * each request and each answer), its examples valid against their own schemas, one source with
 * the request validation, lint-clean under Redocly's recommended rules, and the conformance
 * check the HTTP suites rely on able to fail.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { EVENT_TYPES } from '../../internal/events/event-type';
import { publishedOpenApiDocument } from '../../adapters/http/published-document';
import { apiRoutes } from '../../adapters/http/server';
import { nameOf } from '../../adapters/http/schemas/named';
import { closed, documentConformance, documentValidator } from '../support/openapi-conformance';

const run = promisify(execFile);
const document = publishedOpenApiDocument('https://api.collections.example') as any;
const operations = Object.entries(document.paths).flatMap(([p, methods]) =>
  Object.entries(methods as object).map(([method, operation]) => ({ path: p, method, operation: operation as any })),
);

describe('the OpenAPI document', () => {
  it('names, describes and tags every operation, with unique camelCase operationIds', () => {
    expect(operations.length).to.be.at.least(50);
    const ids = operations.map((o) => o.operation.operationId);
    expect(new Set(ids).size).to.equal(ids.length);
    const tags = new Set(document.tags.map((t: { name: string; description: string }) => t.description && t.name));
    for (const { path: p, method, operation } of operations) {
      const where = `${method} ${p}`;
      expect(operation.operationId, where).to.match(/^[a-z][A-Za-z]+$/);
      expect(operation.summary, where).to.be.a('string').and.not.empty;
      expect(operation.description, where).to.be.a('string').and.not.empty;
      expect(operation.tags, where).to.have.length(1);
      expect(tags.has(operation.tags[0]), `${where}: tag ${operation.tags[0]} is described`).to.equal(true);
      expect(operation['x-idempotent'], where).to.be.a('boolean');
      for (const parameter of operation.parameters) {
        const resolved = parameter.$ref ? document.components.parameters[parameter.$ref.split('/').pop()] : parameter;
        expect(resolved.description, `${where} ${resolved.name}`).to.be.a('string').and.not.empty;
      }
    }
  });

  it('shows a request example and, for every status, an answer example', () => {
    for (const { path: p, method, operation } of operations) {
      if (operation.requestBody) {
        expect(Object.keys(operation.requestBody.content['application/json'].examples ?? {}), `${method} ${p} request`).to.not.be.empty;
      }
      for (const [status, response] of Object.entries(operation.responses as Record<string, any>)) {
        expect(Object.keys(response.content['application/json'].examples ?? {}), `${method} ${p} ${status}`).to.not.be.empty;
        expect(response.headers, `${method} ${p} ${status}`).to.have.property('X-Request-Id');
      }
    }
  });

  it('declares the error answers of every facade operation: 400 (companyCode), 401, 429 with Retry-After, 413 where a body is read, 500', () => {
    for (const { path: p, method, operation } of operations) {
      if (!operation.security?.some((s: object) => 'accessToken' in s)) continue;
      const statuses = Object.keys(operation.responses);
      expect(statuses, `${method} ${p}`).to.include.members(['400', '401', '429', '500', ...(method === 'get' ? [] : ['413'])]);
      expect(operation.responses['429'].headers).to.have.property('Retry-After');
    }
  });

  it('validates every example against its own schema, allowing no field the schema does not name', () => {
    const checked = { count: 0 };
    const { document: refs, ajv } = documentValidator(document);
    const check = (schema: unknown, value: unknown, where: string) => {
      const validate = ajv.compile(closed(schema));
      checked.count++;
      expect(validate(value), `${where}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(value)}`).to.equal(true);
    };
    for (const [name, schema] of Object.entries(refs.components.schemas as Record<string, any>)) {
      for (const [i, example] of (schema.examples ?? []).entries()) check(schema, example, `components.schemas.${name}.examples[${i}]`);
    }
    const media = (where: string, content: any) => {
      const { schema, examples } = content['application/json'];
      for (const [name, example] of Object.entries(examples ?? {})) check(schema, (example as { value: unknown }).value, `${where} ${name}`);
    };
    for (const { path: p, method } of operations) {
      const operation = refs.paths[p][method];
      if (operation.requestBody) media(`${method} ${p} request`, operation.requestBody.content);
      for (const [status, response] of Object.entries(operation.responses as Record<string, any>)) media(`${method} ${p} ${status}`, response.content);
      for (const parameter of operation.parameters) if (parameter.example !== undefined) check(parameter.schema, parameter.example, `${method} ${p} ${parameter.name}`);
    }
    for (const [type, webhook] of Object.entries(refs.webhooks as Record<string, any>)) media(`webhook ${type}`, webhook.post.requestBody.content);
    expect(checked.count).to.be.greaterThan(300);
  });

  it('publishes the very schemas that validate requests: each body is its route schema, by name', () => {
    const stand: any = new Proxy(function () {}, { get: (_t, p) => (p === 'then' ? undefined : stand) });
    const routes = apiRoutes({ app: stand, paymentPortal: stand, testHelpers: true, readinessChecks: [], loginThrottle: stand });
    for (const r of routes) {
      const body = r.body ?? r.handlerBody;
      if (!body) continue;
      const published = document.paths[r.path.replace(/:(\w+)/g, '{$1}')][r.method].requestBody.content['application/json'].schema;
      const names = ((body.oneOf as object[] | undefined) ?? [body]).map((s) => `#/components/schemas/${nameOf(s)}`);
      expect(published.oneOf ? published.oneOf.map((s: { $ref: string }) => s.$ref) : [published.$ref], r.operationId).to.deep.equal(names);
    }
  });

  it('has one webhook per event type, each with its payload schema and the X-Signature header', () => {
    expect(Object.keys(document.webhooks)).to.deep.equal([...EVENT_TYPES, 'webhook.test']);
    for (const [type, webhook] of Object.entries(document.webhooks as Record<string, any>)) {
      expect(webhook.post.parameters.map((p: { name: string }) => p.name), type).to.deep.equal(['X-Signature']);
      const { schema } = webhook.post.requestBody.content['application/json'];
      expect(document.components.schemas[schema.$ref.split('/').pop()].properties.type.enum, type).to.include(type);
    }
  });

  it('passes `redocly lint` with the recommended rules: 0 errors, 0 warnings', async function () {
    this.timeout(60_000);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cf-openapi-'));
    try {
      fs.writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(document, null, 2));
      for (const file of ['redocly.yaml', '.redocly.lint-ignore.yaml']) fs.copyFileSync(file, path.join(dir, file));
      const cli = path.resolve('node_modules/@redocly/cli/bin/cli.js');
      const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
      const result = await run(process.execPath, [cli, 'lint', 'openapi.json', '--format=json'], { cwd: dir, env, maxBuffer: 64 * 1024 * 1024 }).catch((e) => e);
      const report = JSON.parse(result.stdout);
      expect(report.problems.map((p: { ruleId: string; message: string }) => `${p.ruleId}: ${p.message}`)).to.deep.equal([]);
      expect(report.totals).to.include({ errors: 0, warnings: 0 });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the conformance check of the HTTP suites (test/support/openapi-conformance.ts)', () => {
  const conformance = documentConformance();
  const example = document.paths['/debts/{id}'].get.responses['200'].content['application/json'].examples;
  const body = (Object.values(example)[0] as { value: any }).value;
  const headers = { 'x-request-id': 'req_1', 'cache-control': 'no-store', 'ratelimit-limit': '10', 'ratelimit-remaining': '9', 'ratelimit-reset': '1' };
  const getDebt = (status: number, h: Record<string, string>, b: unknown) => conformance.check('get', '/debts/{id}', status, h, b);

  it('accepts a documented answer', () => {
    expect(getDebt(200, headers, body)).to.equal(null);
    expect(conformance.operationPath('post', '/adhesions/cancel')).to.equal('/adhesions/cancel');
    expect(conformance.operationPath('get', '/debts/debt_x')).to.equal('/debts/{id}');
    expect(conformance.operationPath('get', '/pay/ACME/x')).to.equal(null);
  });

  it('refuses an undeclared status, a field the schema does not name (at any depth), a missing field, and headers', () => {
    expect(getDebt(418, headers, body)).to.match(/status 418 is not declared for getDebt/);
    expect(getDebt(200, headers, { ...body, data: { ...body.data, surprise: 1 } })).to.match(/must NOT have additional properties/);
    expect(getDebt(200, headers, { ...body, data: { ...body.data, contact: { ...body.data.contact, x: 1 } } })).to.match(/additional properties/);
    const { amount: _amount, ...withoutAmount } = body.data;
    expect(getDebt(200, headers, { ...body, data: withoutAmount })).to.match(/required property 'amount'/);
    expect(getDebt(200, { ...headers, 'retry-after': '1' }, body)).to.match(/header retry-after is not declared/);
    const { 'x-request-id': _id, ...withoutId } = headers;
    expect(getDebt(200, withoutId, body)).to.match(/header x-request-id is missing/);
  });
});
