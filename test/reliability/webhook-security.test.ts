/**
 * Webhook security, through the real API, on SQLite and MySQL:
 * - without WEBHOOK_ALLOW_PRIVATE_URLS (the default in every environment), every url whose host
 *   is or names a loopback, private, link-local (metadata), CGNAT, reserved or IPv4-in-IPv6
 *   address, in every spelling, is refused on POST and PATCH (400 on url), and so is a url with
 *   credentials; an endpoint already pointing at a private address (stored before, or a DNS
 *   answer that changed) gets nothing at delivery time nor from the test route: `blocked_address`;
 * - attempt errors are classes: whatever the transport says (refused, reset, TLS, DNS, status),
 *   GET /events/{id} and the test route show one of the documented classes, never an address,
 *   a port or an errno; attempts stored before, with raw messages, read as classes too;
 * - webhook secrets are ciphertext in the database: after creations and rotations no plaintext
 *   secret is anywhere in the database (SQLite: the file and its WAL, byte for byte; MySQL: every
 *   table), the rows name their key, and the SQLite file is 0600.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import type { Knex } from 'knex';
import { ATTEMPT_ERRORS } from '../../internal/webhooks/attempt-error';
import { type ApiHarness, startApi, type Tenant } from '../support/harness';
import { DATABASE_KINDS, type DatabaseKind, databaseAvailable } from '../support/databases';
import { expectOk } from '../support/http-expect';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { envelopeProblem, send } from './support/http';
import { Tally } from './support/summary';

const RETRY_DELAYS = '200ms,200ms';

/** One address of each blocked IPv4 range, spelled every way a URL parser accepts. */
const ipv4 = (a: number, b: number, c: number, d: number) => `${a}.${b}.${c}.${d}`;
const BLOCKED_V4_RANGES: [number, number, number, number, number][] = [
  [0, 0, 0, 0, 8], [10, 0, 0, 0, 8], [100, 64, 0, 0, 10], [127, 0, 0, 0, 8], [169, 254, 0, 0, 16], [172, 16, 0, 0, 12],
  [192, 0, 0, 0, 24], [192, 0, 2, 0, 24], [192, 168, 0, 0, 16], [198, 18, 0, 0, 15], [198, 51, 100, 0, 24], [203, 0, 113, 0, 24], [224, 0, 0, 0, 4], [240, 0, 0, 0, 4],
];
/** A random address inside a range. */
const inRange = ([a, b, c, d, prefix]: [number, number, number, number, number]) =>
  fc.integer({ min: 0, max: 2 ** (32 - prefix) - 1 }).map((offset) => {
    const n = (((a << 24) | (b << 16) | (c << 8) | d) >>> 0) + offset;
    return [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255] as [number, number, number, number];
  });
const hex4 = ([a, b, c, d]: number[]) => `${((a! << 8) | b!).toString(16)}:${((c! << 8) | d!).toString(16)}`;
/** Every way to write an IPv4 address into a webhook url's host. */
const spellings = (o: [number, number, number, number]): string[] => {
  const n = ((o[0] << 24) | (o[1] << 16) | (o[2] << 8) | o[3]) >>> 0;
  return [
    ipv4(...o),
    String(n), // decimal
    `0x${n.toString(16)}`, // hex
    o.map((x) => `0${x.toString(8)}`).join('.'), // octal parts
    `[::ffff:${ipv4(...o)}]`, // IPv4-mapped
    `[::ffff:${hex4(o)}]`,
    `[::${ipv4(...o)}]`, // IPv4-compatible
    `[2002:${hex4(o)}::1]`, // 6to4
    `[64:ff9b::${hex4(o)}]`, // NAT64
  ];
};
const FIXED_HOSTS = [
  'localhost', 'LOCALHOST', 'localhost.', '127.1', '[::1]', '[::]', '[0:0:0:0:0:0:0:1]', '[fe80::1]', '[fd00:ec2::254]', '[fc00::1]', '[ff02::1]',
  '[2001:0:4136:e378:8000:63bf:3fff:fdd2]', '[2001:db8::1]', '[64:ff9b:1::a9fe:a9fe]', '[::ffff:0:a9fe:a9fe]', 'metadata.google.internal',
];

for (const kind of DATABASE_KINDS) {
  describe(`webhook security [${kind}]`, function () {
    this.timeout(120_000);
    let guarded: ApiHarness | null = null; // the default: no WEBHOOK_ALLOW_PRIVATE_URLS
    let local: ApiHarness | null = null; // WEBHOOK_ALLOW_PRIVATE_URLS=true, as a developer with a local receiver
    let receiver: WebhookReceiver;

    before(async function () {
      this.timeout(60_000);
      if (!(await databaseAvailable(kind))) this.skip();
      receiver = await startWebhookReceiver();
      guarded = await startApi(kind, { allowPrivateWebhookUrls: false, webhooks: { retryDelays: RETRY_DELAYS, dispatchEveryMs: 100 } });
      local = await startApi(kind, { allowPrivateWebhookUrls: true, webhooks: { retryDelays: RETRY_DELAYS, dispatchEveryMs: 100 } });
    });
    after(async () => {
      await guarded?.close();
      await local?.close();
      await receiver?.close();
    });

    it('webhook URLs to private addresses are refused without the opt-in (POST and PATCH, every spelling, 400 on url); with credentials too; at delivery time and by the test route nothing is sent', async () => {
      const api = guarded!;
      const tally = new Tally(`webhook security [${kind}] private addresses refused without WEBHOOK_ALLOW_PRIVATE_URLS`);
      const t = await api.newTenant();
      const publicHook = expectOk(await api.http.post('/webhook-endpoints').set(t.headers).send({ url: 'https://93.184.216.34/hooks', enabledEvents: ['*'] }), 201);
      const refused = async (url: string) => {
        for (const [what, req] of [
          ['POST', () => api.http.post('/webhook-endpoints').set(t.headers).send({ url, enabledEvents: ['*'] })],
          ['PATCH', () => api.http.patch(`/webhook-endpoints/${publicHook.webhookEndpointId}`).set(t.headers).send({ url })],
        ] as const) {
          const res = await send(req);
          const fields = (res.body.error?.details ?? []).map((d: { field: string }) => d.field);
          tally.record(envelopeProblem(res) ?? (res.status === 400 && fields.includes('url') ? null : `${what} ${url}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`));
        }
      };
      const hosts = new Set(FIXED_HOSTS);
      for (const range of BLOCKED_V4_RANGES) {
        for (const address of fc.sample(inRange(range), 3)) for (const host of spellings(address)) hosts.add(host);
      }
      for (const host of hosts) for (const scheme of ['http', 'https']) await refused(`${scheme}://${host}:8080/hooks`);
      for (const url of ['https://user:pw@hooks.example.com/in', 'https://user@93.184.216.34/in', 'https://:pw@93.184.216.34/in']) await refused(url);
      // Public addresses stay accepted (literals: no DNS in the test).
      for (const url of ['https://93.184.216.34/ok', 'http://8.8.8.8:8080/ok', 'https://[2606:4700:4700::1111]/ok']) {
        const res = await send(() => api.http.post('/webhook-endpoints').set(t.headers).send({ url, enabledEvents: ['debt.paid'] }));
        tally.record(res.status === 201 ? null : `${url}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      }

      // An endpoint already pointing at the local receiver (stored before the policy, or its DNS
      // answer changed): the sender checks again when it connects, so nothing reaches it.
      const t2 = await api.newTenant();
      const stale = expectOk(await api.http.post('/webhook-endpoints').set(t2.headers).send({ url: 'https://93.184.216.34/stale', enabledEvents: ['contact.created'] }), 201);
      const path = `/${kind}-stale`;
      await api.infra.db!('webhook_endpoints').where({ code: stale.webhookEndpointId.slice(4) }).update({ url: receiver.url(path) });
      const test = await send(() => api.http.post(`/webhook-endpoints/${stale.webhookEndpointId}/test`).set(t2.headers));
      tally.record(test.status === 200 && test.body.data.error === 'blocked_address' && test.body.data.delivered === false ? null : `test route to a private address: ${JSON.stringify(test.body)}`);
      expectOk(await api.http.post('/contacts').set(t2.headers).send({ externalClientId: 'stale', name: 'Stale', email: 'stale@example.com' }), 201);
      const [event] = expectOk<{ eventId: string }[]>(await api.http.get('/events').set(t2.headers));
      const attempts = await attemptsOf(api, t2, event!.eventId, (a) => a.length >= 1);
      tally.record(attempts.every((a) => a.error === 'blocked_address' && a.statusCode === null) ? null : `delivery to a private address: ${JSON.stringify(attempts)}`);
      tally.record(receiver.received(path).length === 0 ? null : `the private receiver got ${receiver.received(path).length} requests`);
      tally.report();
    });

    it('attempt errors are classes: GET /events/{id} and the test route name a class, never an address, a port or an errno; attempts stored before read as classes', async () => {
      const api = local!;
      const tally = new Tally(`webhook security [${kind}] attempt errors are classes`);
      const t = await api.newTenant();
      const closedPort = await freePort();
      const tlsToPlain = receiver.url('/plain').replace('http:', 'https:');
      const resetting = await rawServer((req) => req.socket.destroy());
      try {
        const cases: [string, string, string][] = [
          [`http://127.0.0.1:${closedPort}/refused`, 'connection_refused', 'refused'],
          ['http://no-such-host.invalid/hooks', 'dns_error', 'dns'],
          [tlsToPlain, 'tls_error', 'tls'],
          [resetting.url, 'connection_error', 'reset'],
          [receiver.url('/status'), 'http_status', 'status'],
        ];
        receiver.script('/status', [503, 503, 503, 503, 503, 503]);
        // What a transport message names: an address, a host, an errno, the library's words.
        // The answer's random ids are left out: one may spell "ssl" or "socket" by chance.
        const randomIds = { eventId: null, webhookEndpointId: null };
        const leaks = (text: string) => /\b\d{1,3}(\.\d{1,3}){3}\b|localhost|no-such-host|ECONN|EAI_|ENOTFOUND|EHOST|ETIMEDOUT|getaddrinfo|socket|certificate|ssl|refused:/i.test(text);
        for (const [url, expected, label] of cases) {
          const hook = expectOk(await api.http.post('/webhook-endpoints').set(t.headers).send({ url, enabledEvents: ['contact.created'], description: label }), 201);
          const tested = await send(() => api.http.post(`/webhook-endpoints/${hook.webhookEndpointId}/test`).set(t.headers));
          tally.record(
            envelopeProblem(tested) ??
              (tested.body.data.error === expected && tested.body.data.delivered === false && !leaks(JSON.stringify({ ...tested.body.data, ...randomIds })) ? null : `test ${label}: ${JSON.stringify(tested.body.data)}`),
          );
        }
        expectOk(await api.http.post('/contacts').set(t.headers).send({ externalClientId: 'classes', name: 'Classes', email: 'classes@example.com' }), 201);
        const [event] = expectOk<{ eventId: string }[]>(await api.http.get('/events').set(t.headers));
        const detail = await deliveriesOf(api, t, event!.eventId, (ds) => ds.length === cases.length && ds.every((d) => d.status === 'FAILED'));
        for (const delivery of detail) {
          const [, expected, label] = cases.find(([url]) => url === delivery.url)!;
          for (const attempt of delivery.attempts) {
            tally.record(
              attempt.error === expected && (ATTEMPT_ERRORS as readonly string[]).includes(attempt.error) && !leaks(JSON.stringify({ ...attempt, attemptedAt: null }))
                ? null
                : `${label} attempt ${attempt.attempt}: ${JSON.stringify(attempt)}`,
            );
          }
        }
        // Attempts recorded by the previous version kept the transport's message: they read as classes.
        const db: Knex = api.infra.db!;
        const [delivery] = await db('webhook_deliveries as d').join('events as e', 'e.id', 'd.event_row_id').where('e.event_id', event!.eventId).select('d.id');
        const legacy: [number | null, string | null, string | null][] = [
          [null, 'ECONNREFUSED: connect ECONNREFUSED 10.0.0.7:5432', 'connection_refused'],
          [null, 'timed out after 10000 ms', 'timeout'],
          [null, 'refused: metadata.internal resolves to a private address', 'blocked_address'],
          [null, 'EAI_AGAIN: getaddrinfo EAI_AGAIN db.internal', 'dns_error'],
          [null, 'DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate', 'tls_error'],
          [null, 'ECONNRESET: socket hang up', 'connection_error'],
          [502, null, 'http_status'],
        ];
        await db('webhook_delivery_attempts').insert(
          legacy.map(([statusCode, error], i) => ({ delivery_id: delivery.id, attempt: 100 + i, attempted_at: Date.now(), status_code: statusCode, error, duration_ms: 3, succeeded: false })),
        );
        const after = await deliveriesOf(api, t, event!.eventId, () => true);
        const shown = after.flatMap((d) => d.attempts).filter((a) => a.attempt >= 100).sort((a, b) => a.attempt - b.attempt);
        for (const [i, [, , expected]] of legacy.entries()) {
          tally.record(shown[i]?.error === expected && !leaks(JSON.stringify({ ...shown[i], attemptedAt: null })) ? null : `stored attempt ${i}: ${JSON.stringify(shown[i])}`);
        }
      } finally {
        await resetting.close();
      }
      tally.report('attempts and test sends');
    });

    it('webhook secrets are ciphertext in the database: after creations and rotations no plaintext secret is stored anywhere; the SQLite file is 0600', async () => {
      const api = local!;
      const tally = new Tally(`webhook security [${kind}] webhook secrets are ciphertext in the database`);
      const t = await api.newTenant();
      const secrets: string[] = [];
      for (let i = 0; i < 8; i++) {
        const hook = expectOk(await api.http.post('/webhook-endpoints').set(t.headers).send({ url: `https://93.184.216.34/h${i}`, enabledEvents: ['*'] }), 201);
        secrets.push(hook.secret);
        for (const hours of i % 2 === 0 ? [24, 0, 168] : [1]) {
          const rotated = expectOk(await api.http.post(`/webhook-endpoints/${hook.webhookEndpointId}/rotate-secret`).set(t.headers).send({ expiresInHours: hours }));
          secrets.push(rotated.secret);
        }
      }
      const db: Knex = api.infra.db!;
      const rows = await db('webhook_endpoints').where({ organization_id: t.organizationId }).select('secret', 'previous_secret');
      for (const row of rows) {
        for (const value of [row.secret, row.previous_secret].filter((v) => v !== null)) {
          tally.record(/^enc:v1:[0-9a-f]{16}:[A-Za-z0-9_-]+$/.test(value) ? null : `a stored secret is not sealed: ${String(value).slice(0, 12)}…`);
        }
      }
      // The whole database, not only the column: no plaintext secret anywhere.
      const stored = kind === 'sqlite' ? sqliteBytes(api.databaseUrl) : await databaseDump(db, kind);
      for (const secret of secrets) tally.record(stored.includes(secret) ? `the plaintext of a secret (${secret.slice(0, 10)}…) is in the database` : null);
      tally.record(stored.includes('whsec_') ? 'a whsec_ plaintext is in the database' : null);
      if (kind === 'sqlite') {
        const file = api.databaseUrl.slice('sqlite:'.length);
        for (const name of [file, `${file}-wal`, `${file}-shm`].filter((f) => fs.existsSync(f))) {
          const mode = fs.statSync(name).mode & 0o777;
          tally.record(mode === 0o600 ? null : `${name.split('/').pop()} has mode ${mode.toString(8)}`);
        }
      }
      // Still usable: the latest secret signs a test send that the receiver verifies.
      const last = expectOk(await api.http.post('/webhook-endpoints').set(t.headers).send({ url: receiver.url('/sealed'), enabledEvents: ['*'] }), 201);
      receiver.setSecret('/sealed', last.secret);
      const sent = expectOk(await api.http.post(`/webhook-endpoints/${last.webhookEndpointId}/test`).set(t.headers));
      tally.record(sent.delivered && receiver.received('/sealed').at(-1)?.signatureValid ? null : `a test send with the stored secret did not verify: ${JSON.stringify(sent)}`);
      tally.report('secrets');
    });
  });
}

interface ShownAttempt {
  attempt: number;
  statusCode: number | null;
  error: string | null;
}
interface ShownDelivery {
  url: string;
  status: string;
  attempts: ShownAttempt[];
}

/** Polls GET /events/{id} until its deliveries satisfy `done`. */
async function deliveriesOf(api: ApiHarness, t: Tenant, eventId: string, done: (deliveries: ShownDelivery[]) => boolean): Promise<ShownDelivery[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const detail = expectOk(await api.http.get(`/events/${eventId}`).set(t.headers));
    if (done(detail.deliveries)) return detail.deliveries;
    if (Date.now() > deadline) throw new Error(`deliveries of ${eventId} not done: ${JSON.stringify(detail.deliveries)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function attemptsOf(api: ApiHarness, t: Tenant, eventId: string, done: (attempts: ShownAttempt[]) => boolean): Promise<ShownAttempt[]> {
  const [delivery] = await deliveriesOf(api, t, eventId, (ds) => ds.length > 0 && done(ds[0]!.attempts));
  return delivery!.attempts;
}

/** A port nothing listens on (taken, then released). */
async function freePort(): Promise<number> {
  const server = http.createServer();
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function rawServer(handler: http.RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(handler);
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/reset`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The SQLite database as stored: the file and its WAL, as text (a secret would show in either). */
function sqliteBytes(databaseUrl: string): string {
  const file = databaseUrl.slice('sqlite:'.length);
  return [file, `${file}-wal`].filter((f) => fs.existsSync(f)).map((f) => fs.readFileSync(f).toString('latin1')).join('\n');
}

/** Every row of every table of the MySQL or PostgreSQL database, as text. */
async function databaseDump(db: Knex, kind: DatabaseKind): Promise<string> {
  const tables =
    kind === 'postgres'
      ? ((await db.raw("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")) as { rows: Record<string, string>[] }).rows
      : ((await db.raw('SHOW TABLES')) as [Record<string, string>[]])[0];
  const parts: string[] = [];
  for (const row of tables) {
    const table = Object.values(row)[0]!;
    parts.push(JSON.stringify(await db(table).select('*')));
  }
  return parts.join('\n');
}
