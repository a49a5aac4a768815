import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Twilio's Messages API (node:http on an ephemeral port). Every request is
 * checked against the documented shape of "create a Message"
 * (https://www.twilio.com/docs/messaging/api/message-resource#create-a-message-resource):
 * `POST /2010-04-01/Accounts/{AccountSid}/Messages.json`, HTTP Basic auth `AccountSid:AuthToken`,
 * `application/x-www-form-urlencoded` with `To`, `From` or `MessagingServiceSid`, `Body`, an
 * optional `StatusCallback`, and `whatsapp:` on both `To` and `From` or on neither. What is wrong
 * is listed in `problems` (a test expects none) and answered as Twilio would (401 / 400).
 * Otherwise it answers what the test scripted, else `201` with a Twilio-like message resource.
 */
export interface TwilioRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  form: URLSearchParams;
  problems: string[];
}

export type TwilioAnswer = { status: number; body?: unknown; headers?: Record<string, string> } | 'hang' | 'drop';

export interface FakeTwilio {
  baseUrl: string;
  requests: TwilioRequest[];
  /** The answers for the next requests, in order (after them: 201). */
  script(...answers: TwilioAnswer[]): void;
  /** Forgets the requests and the answers not used yet (between tests). */
  reset(): void;
  /** Sids answered so far, in order. */
  sids: string[];
  close(): Promise<void>;
}

const FIELDS = new Set(['To', 'From', 'MessagingServiceSid', 'Body', 'StatusCallback']);
const E164 = /^\+[1-9]\d{6,14}$/;

export async function startFakeTwilio(accountSid: string, authToken: string): Promise<FakeTwilio> {
  const requests: TwilioRequest[] = [];
  const answers: TwilioAnswer[] = [];
  const sids: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const form = new URLSearchParams(raw);
      const problems: string[] = [];
      const path = req.url ?? '';
      if (req.method !== 'POST') problems.push(`method ${req.method}`);
      if (path !== `/2010-04-01/Accounts/${accountSid}/Messages.json`) problems.push(`path ${path}`);
      if (!/^application\/x-www-form-urlencoded(;\s*charset=utf-8)?$/i.test(req.headers['content-type'] ?? '')) problems.push(`content-type ${req.headers['content-type']}`);
      const expectedAuth = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
      const authOk = req.headers.authorization === expectedAuth;
      if (!authOk) problems.push('authorization');
      for (const key of new Set(form.keys())) {
        if (!FIELDS.has(key)) problems.push(`unknown field ${key}`);
        if (form.getAll(key).length !== 1) problems.push(`repeated field ${key}`);
      }
      const to = form.get('To') ?? '';
      const from = form.get('From');
      const service = form.get('MessagingServiceSid');
      if ((from === null) === (service === null)) problems.push('exactly one of From and MessagingServiceSid');
      if (service !== null && !/^MG[0-9a-f]{32}$/i.test(service)) problems.push('MessagingServiceSid');
      const whatsapp = to.startsWith('whatsapp:');
      if (!E164.test(to.replace(/^whatsapp:/, ''))) problems.push(`To ${to}`);
      if (from !== null) {
        if (from.startsWith('whatsapp:') !== whatsapp) problems.push('whatsapp: on To and From, or on neither');
        if (!E164.test(from.replace(/^whatsapp:/, ''))) problems.push(`From ${from}`);
      }
      if (whatsapp && service !== null) problems.push('WhatsApp needs a whatsapp: From here');
      if (!form.get('Body')) problems.push('Body');
      const callback = form.get('StatusCallback');
      if (callback !== null && !/^https?:\/\/[^\s]+$/.test(callback)) problems.push('StatusCallback');
      requests.push({ method: req.method ?? '', path, headers: req.headers, form, problems });

      if (!authOk) return answer(res, { status: 401, body: { code: 20003, message: 'Authenticate', more_info: 'https://www.twilio.com/docs/errors/20003', status: 401 } });
      if (problems.length > 0) return answer(res, { status: 400, body: { code: 21604, message: problems.join('; '), status: 400 } });
      const next = answers.shift();
      if (next === 'hang') return; // no answer: the sender's timeout decides
      if (next === 'drop') return req.socket.destroy();
      if (next) return answer(res, next);
      const sid = `SM${crypto.randomBytes(16).toString('hex')}`;
      sids.push(sid);
      return answer(res, {
        status: 201,
        body: {
          account_sid: accountSid,
          api_version: '2010-04-01',
          body: form.get('Body'),
          date_created: new Date().toUTCString(),
          direction: 'outbound-api',
          error_code: null,
          error_message: null,
          from: from ?? null,
          messaging_service_sid: service,
          num_media: '0',
          num_segments: '1',
          price: null,
          sid,
          status: 'queued',
          to,
          uri: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}.json`,
        },
      });
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    sids,
    script: (...next) => void answers.push(...next),
    reset: () => {
      requests.length = 0;
      answers.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function answer(res: http.ServerResponse, a: { status: number; body?: unknown; headers?: Record<string, string> }): void {
  const body = a.body === undefined ? '' : typeof a.body === 'string' ? a.body : JSON.stringify(a.body);
  res.writeHead(a.status, { 'Content-Type': typeof a.body === 'string' ? 'text/html' : 'application/json', ...a.headers });
  res.end(body);
}

/** Twilio's error answer: `{ code, message, more_info, status }`. */
export function twilioError(status: number, code: number, message: string): { status: number; body: unknown } {
  return { status, body: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status } };
}
