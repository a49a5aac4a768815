/**
 * A login flood from a process of its own, so the server under test does not share its event
 * loop with the attacker's client. Run by security.test.ts through tsx with FLOOD set to
 * { port, requests, concurrency, ratePerSecond?, localAddress?, forwardedFor: 'random' | null, loginApiKey: string | null }:
 * `concurrency` requests in flight at most, each sent as soon as one is answered, and with
 * `ratePerSecond` no faster than that (the flood runs on the server's own cores here, where an
 * attacker's client would not).
 * Prints `started`, then one JSON line: { statuses: { <status>: n }, retryAfter: { <value>: n }, seconds }.
 */
import crypto from 'node:crypto';
import http from 'node:http';

interface FloodSpec {
  port: number;
  requests: number;
  concurrency: number;
  ratePerSecond?: number;
  localAddress?: string;
  forwardedFor: 'random' | null;
  loginApiKey: string | null;
}

function attempt(spec: FloodSpec, i: number): Promise<{ status: number; retryAfter: string | undefined }> {
  const body = JSON.stringify({ clientUsername: `flood_${i}_${crypto.randomBytes(4).toString('hex')}`, password: 'guess' });
  const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
  if (spec.loginApiKey) headers['x-api-key'] = spec.loginApiKey;
  if (spec.forwardedFor === 'random') headers['x-forwarded-for'] = `198.18.${crypto.randomInt(256)}.${crypto.randomInt(256)}`;
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: spec.port, method: 'POST', path: '/auth/login', localAddress: spec.localAddress, agent: false, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, retryAfter: res.headers['retry-after'] as string | undefined }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function main(): Promise<void> {
  const spec = JSON.parse(process.env.FLOOD!) as FloodSpec;
  const statuses: Record<string, number> = {};
  const retryAfter: Record<string, number> = {};
  let next = 0;
  process.stdout.write('started\n');
  const started = Date.now();
  await Promise.all(
    Array.from({ length: spec.concurrency }, async () => {
      while (next < spec.requests) {
        const i = next++;
        const due = spec.ratePerSecond ? started + (i * 1000) / spec.ratePerSecond : 0;
        if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
        const res = await attempt(spec, i);
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.retryAfter !== undefined) retryAfter[res.retryAfter] = (retryAfter[res.retryAfter] ?? 0) + 1;
      }
    }),
  );
  process.stdout.write(JSON.stringify({ statuses, retryAfter, seconds: (Date.now() - started) / 1000 }) + '\n');
}

main().catch((error) => {
  process.stderr.write(String(error?.stack ?? error) + '\n');
  process.exit(1);
});
