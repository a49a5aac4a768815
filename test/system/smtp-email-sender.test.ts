import net from 'node:net';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { expect } from 'chai';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import { classifySmtpError, messageIdFor, parseSmtpUrl, requiresStartTls, SmtpEmailSender } from '../../adapters/messaging/smtp-email-sender';
import { PermanentSendFailure, type OutgoingEmail } from '../../ports/message-sender';

/**
 * adapters/messaging/smtp-email-sender.ts against a real SMTP server (the `smtp-server` package)
 * run by the test on a random port, with AUTH: what the server receives, parsed with mailparser,
 * and how its refusals and a broken connection reach the sending job.
 */
describe('SMTP email sender (nodemailer against a real SMTP server)', function () {
  this.timeout(20_000);

  const USER = 'reminders-mailer';
  const PASSWORD = 'S3cr3t/P@ss:word%ñ';
  const FROM = 'recordatorios@cobranzas.example.mx';

  interface Received {
    raw: Buffer;
    parsed: ParsedMail;
    mailFrom: string;
    rcptTo: string[];
    user: string | undefined;
  }

  let server: SMTPServer;
  let port: number;
  let received: Received[];
  let authAttempts = 0;
  const opened: SmtpEmailSender[] = [];

  /** What RCPT TO answers for an address, by its local part: a rejection, or a temporary failure. */
  const RCPT_REPLIES: Record<string, [number, string]> = {
    'nobody': [550, '5.1.1 <nobody@deudores.example> user unknown on mx.internal.example'],
    'moved': [551, '5.1.6 user not local; please try <elsewhere@example>'],
    'bad-name': [553, '5.1.3 mailbox name not allowed'],
    'bad-syntax': [501, '5.1.3 bad recipient address syntax'],
    'greylisted': [451, '4.7.1 greylisted, try again later'],
    'mailbox-full': [452, '4.2.2 mailbox full'],
  };

  before(async () => {
    received = [];
    server = new SMTPServer({
      secure: false,
      // No TLS in the test: nodemailer would try STARTTLS against the server's self-signed certificate.
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      authOptional: false,
      logger: false,
      onAuth(auth, _session, callback) {
        authAttempts += 1;
        if (auth.username === USER && auth.password === PASSWORD) return callback(null, { user: auth.username });
        return callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
      },
      onRcptTo(address, _session, callback) {
        const reply = RCPT_REPLIES[address.address.split('@')[0]!];
        if (reply) return callback(Object.assign(new Error(reply[1]), { responseCode: reply[0] }));
        return callback();
      },
      onData(stream, session: SMTPServerSession, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks);
          if (session.envelope.rcptTo.some((r) => r.address.startsWith('spam-trap@'))) {
            return callback(Object.assign(new Error('5.7.1 message content rejected'), { responseCode: 554 }));
          }
          simpleParser(raw)
            .then((parsed) => {
              received.push({
                raw,
                parsed,
                mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                rcptTo: session.envelope.rcptTo.map((r) => r.address),
                user: session.user as string | undefined,
              });
              callback(null, 'Queued as 0A1B2C');
            })
            .catch(callback);
        });
      },
    });
    server.listen(0, '127.0.0.1');
    await once(server.server, 'listening');
    port = (server.server.address() as AddressInfo).port;
  });

  after(async () => {
    await Promise.all(opened.map((s) => s.close()));
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  beforeEach(() => {
    received = [];
  });

  const smtpUrl = (password = PASSWORD, p = port) => `smtp://${encodeURIComponent(USER)}:${encodeURIComponent(password)}@127.0.0.1:${p}`;
  const sender = (options: Partial<ConstructorParameters<typeof SmtpEmailSender>[0]> = {}) => {
    const s = new SmtpEmailSender({ smtpUrl: smtpUrl(), fromAddress: FROM, connectionTimeoutMs: 2000, greetingTimeoutMs: 2000, socketTimeoutMs: 5000, ...options });
    opened.push(s);
    return s;
  };

  const UNSUBSCRIBE = `https://pagos.example.mx/unsubscribe/rem_01HZX9K2Q7/email.${'a1B2c3D4e5'.repeat(12)}?channel=email&lang=es-MX`;
  const email = (over: Partial<OutgoingEmail> = {}): OutgoingEmail => ({
    to: 'begona.nunez@deudores.example',
    fromName: 'Compañía "Ñandú" & Hijos, S.A.',
    subject: 'Recordatorio: tu pago de $1,234.50 MXN vence mañana',
    text: 'Hola Begoña Núñez:\n\nTu saldo de $1,234.50 MXN (≈ €66,80) vence el 3 de diciembre.\nPaga aquí: https://pagos.example.mx/d/deb_1\n\nSi el texto dice <b>, no es HTML.\n',
    html: '<p>Hola <strong>Begoña Núñez</strong>:</p><p>Tu saldo de <b>$1,234.50&nbsp;MXN</b> (≈ €66,80) vence el 3 de diciembre.</p><p>Concepto: Servicio &lt;Premium&gt; &amp; más</p><p><a href="https://pagos.example.mx/d/deb_1?a=1&amp;b=2">Pagar ahora</a></p>',
    unsubscribeUrl: UNSUBSCRIBE,
    reference: 'deb_01HZX9K2Q7.step-3.email',
    ...over,
  });

  /** A header's raw lines in the message as received, unfolded. */
  const rawHeader = (raw: Buffer, name: string): string[] => {
    const head = raw.toString('latin1').split(/\r\n\r\n/)[0]!.replace(/\r\n[ \t]/g, ' ');
    return head
      .split(/\r\n/)
      .filter((line) => line.toLowerCase().startsWith(`${name.toLowerCase()}:`))
      .map((line) => line.slice(name.length + 1).trim());
  };

  it('delivers From, To, Subject, the Message-ID, both parts in UTF-8 and the RFC 8058 unsubscribe headers, after AUTH', async () => {
    const sent = await sender().send(email());

    expect(received).to.have.length(1);
    const [{ raw, parsed, mailFrom, rcptTo, user }] = received as [Received];
    expect(user).to.equal(USER);
    expect(mailFrom).to.equal(FROM);
    expect(rcptTo).to.deep.equal(['begona.nunez@deudores.example']);

    expect(parsed.from?.value).to.deep.equal([{ name: 'Compañía "Ñandú" & Hijos, S.A.', address: FROM }]);
    const to = Array.isArray(parsed.to) ? parsed.to[0] : parsed.to;
    expect(to?.value.map((a) => a.address)).to.deep.equal(['begona.nunez@deudores.example']);
    expect(parsed.subject).to.equal('Recordatorio: tu pago de $1,234.50 MXN vence mañana');

    expect(parsed.messageId).to.equal('<deb_01HZX9K2Q7.step-3.email@cobranzas.example.mx>');
    expect(sent.providerMessageId).to.equal(parsed.messageId);

    // multipart/alternative: the text part exactly, the HTML part with its escaping untouched.
    expect(rawHeader(raw, 'Content-Type')[0]).to.match(/^multipart\/alternative;/);
    expect(parsed.text).to.equal(email().text);
    expect(parsed.html).to.be.a('string');
    const html = parsed.html as string;
    expect(html).to.contain('<strong>Begoña Núñez</strong>');
    expect(html).to.contain('$1,234.50&nbsp;MXN');
    expect(html).to.contain('€66,80');
    expect(html).to.contain('Servicio &lt;Premium&gt; &amp; más');
    expect(html).to.not.contain('<Premium>');
    expect(html).to.contain('href="https://pagos.example.mx/d/deb_1?a=1&amp;b=2"');
    expect(parsed.text).to.contain('Si el texto dice <b>, no es HTML.');

    // RFC 8058: the URL whole on one line, however long, and the one-click POST marker.
    expect(rawHeader(raw, 'List-Unsubscribe')).to.deep.equal([`<${UNSUBSCRIBE}>`]);
    expect(rawHeader(raw, 'List-Unsubscribe-Post')).to.deep.equal(['List-Unsubscribe=One-Click']);
    expect(raw.toString('latin1').split('\r\n').every((line) => line.length <= 998)).to.equal(true);
  });

  it('gives a resend of the same reference the same Message-ID, and another reference another one', async () => {
    const s = sender();
    const first = await s.send(email());
    const again = await s.send(email());
    const other = await s.send(email({ reference: 'deb_01HZX9K2Q7.step-4.email' }));
    expect(again.providerMessageId).to.equal(first.providerMessageId);
    expect(other.providerMessageId).to.not.equal(first.providerMessageId);
    expect(received.map((r) => r.parsed.messageId)).to.deep.equal([first.providerMessageId, first.providerMessageId, other.providerMessageId]);
  });

  it('sends many at once over the pool, each exactly once', async () => {
    const s = sender({ maxConnections: 3 });
    const sent = await Promise.all(Array.from({ length: 30 }, (_, i) => s.send(email({ reference: `deb_${i}.step-0.email`, to: `deudor${i}@deudores.example` }))));
    expect(new Set(sent.map((m) => m.providerMessageId)).size).to.equal(30);
    expect(received).to.have.length(30);
    expect(new Set(received.map((r) => r.parsed.messageId)).size).to.equal(30);
    expect(received.map((r) => r.rcptTo[0]).sort()).to.deep.equal(Array.from({ length: 30 }, (_, i) => `deudor${i}@deudores.example`).sort());
  });

  it('builds Message-IDs that are valid and distinct for any reference', () => {
    const ids = ['a b', 'a=20b', 'a.b', '.a', 'a.', 'a..b', 'ñ', '', '\u0000', 'x@y', '<x>'].map((ref) => messageIdFor(ref, 'Recordatorios@Cobranzas.Example.MX'));
    expect(new Set(ids).size).to.equal(ids.length);
    for (const id of ids) expect(id).to.match(/^<[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@cobranzas\.example\.mx>$/);
  });

  it('a recipient refused for good on RCPT TO (550, 551, 553, 501) is a PermanentSendFailure with a reason class', async () => {
    const s = sender();
    for (const [local, code] of [['nobody', '550 5.1.1'], ['moved', '551 5.1.6'], ['bad-name', '553 5.1.3'], ['bad-syntax', '501 5.1.3']] as const) {
      const error = await s.send(email({ to: `${local}@deudores.example` })).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, local).to.be.instanceOf(PermanentSendFailure);
      expect((error as PermanentSendFailure).reason, local).to.equal(`email_recipient_rejected (${code})`);
      // The server's text (addresses, its host name) is not part of the reason.
      expect((error as PermanentSendFailure).reason).to.not.match(/@|internal|elsewhere/);
    }
    // The pooled connection goes on: the next message is delivered.
    await s.send(email());
    expect(received).to.have.length(1);
  });

  it('a temporary refusal (451, 452 on RCPT TO) or a refused message (554 on DATA) is transient', async () => {
    const s = sender();
    for (const [to, pattern] of [
      ['greylisted@deudores.example', /^SMTP: recipient not accepted now \(451 4\.7\.1\)$/],
      ['mailbox-full@deudores.example', /^SMTP: recipient not accepted now \(452 4\.2\.2\)$/],
      ['spam-trap@deudores.example', /^SMTP: message refused \(554 5\.7\.1\)$/],
    ] as const) {
      const error = await s.send(email({ to })).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, to).to.be.instanceOf(Error);
      expect(error, to).to.not.be.instanceOf(PermanentSendFailure);
      expect((error as Error).message, to).to.match(pattern);
    }
  });

  it('lets nothing in a subject, a name or an address add a header or a recipient', async () => {
    const s = sender();
    await s.send(
      email({
        subject: 'Aviso\r\nBcc: intruso@evil.example\r\nX-Injected: 1',
        fromName: 'Cobranzas\r\nBcc: otro@evil.example',
        // The URL parser drops CR and LF and percent-encodes the rest: one harmless header line.
        unsubscribeUrl: 'https://pagos.example.mx/u>\r\nBcc: x@evil.example',
      }),
    );
    expect(received).to.have.length(1);
    const [{ raw, parsed, rcptTo }] = received as [Received];
    expect(rcptTo).to.deep.equal(['begona.nunez@deudores.example']);
    expect(rawHeader(raw, 'Bcc')).to.deep.equal([]);
    expect(rawHeader(raw, 'X-Injected')).to.deep.equal([]);
    expect(parsed.subject).to.match(/^Aviso/);
    expect(rawHeader(raw, 'List-Unsubscribe')).to.deep.equal(['<https://pagos.example.mx/u%3EBcc:%20x@evil.example>']);
    for (const to of ['dos@a.example, tres@b.example', 'uno@a.example\r\nBcc: x@evil.example', '"Begoña" <b@a.example>', 'sin-arroba', 'a@b']) {
      const error = await s.send(email({ to })).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, to).to.be.instanceOf(PermanentSendFailure);
      expect((error as PermanentSendFailure).reason).to.equal('email_invalid_recipient');
    }
    for (const unsubscribeUrl of ['javascript:alert(1)', '/relative', 'ftp://pagos.example.mx/u', `https://pagos.example.mx/${'x'.repeat(1000)}`]) {
      const error = await s.send(email({ unsubscribeUrl })).then(
        () => null,
        (e: unknown) => e,
      );
      expect((error as PermanentSendFailure).reason, unsubscribeUrl).to.equal('email_invalid_unsubscribe_url');
    }
    expect(received).to.have.length(1);
  });

  it('requires STARTTLS before sending credentials to another machine over smtp://', async () => {
    expect(requiresStartTls({ secure: false, host: 'smtp.example.com', user: 'u' })).to.equal(true);
    expect(requiresStartTls({ secure: false, host: '10.0.0.5', user: 'u' })).to.equal(true);
    expect(requiresStartTls({ secure: false, host: 'smtp.example.com', user: null })).to.equal(false);
    expect(requiresStartTls({ secure: true, host: 'smtp.example.com', user: 'u' })).to.equal(false);
    expect(requiresStartTls({ secure: false, host: 'localhost', user: 'u' })).to.equal(false);
    expect(requiresStartTls({ secure: false, host: '127.0.0.1', user: 'u' })).to.equal(false);
    // Where STARTTLS is required and the server does not offer it, the password is never sent.
    const before = authAttempts;
    const error = await sender({ requireTls: true }).send(email()).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(Error);
    expect(error).to.not.be.instanceOf(PermanentSendFailure);
    expect(authAttempts).to.equal(before);
    expect(received).to.have.length(0);
  });

  /** Every error of the failure tests, to search for the credentials and the server's address. */
  const errors: unknown[] = [];
  const failure = async (s: SmtpEmailSender, message = email()): Promise<Error> => {
    const error = await s.send(message).then(
      () => null,
      (e: unknown) => e,
    );
    errors.push(error);
    expect(error).to.be.instanceOf(Error);
    expect(error).to.not.be.instanceOf(PermanentSendFailure);
    return error as Error;
  };

  it('wrong credentials are transient (an operator fixes the setting; the retries then go out)', async () => {
    const error = await failure(sender({ smtpUrl: smtpUrl('wrong-password-Zq9') }));
    expect(error.message).to.equal('SMTP: authentication refused (535)');
    expect(received).to.have.length(0);
  });

  it('a connection dropped by the server mid-session is transient', async () => {
    // A server that greets, then hangs up at the first command.
    const dropper = net.createServer((socket) => {
      socket.write('220 mx.dropper.example ESMTP\r\n');
      socket.once('data', () => socket.destroy());
    });
    dropper.listen(0, '127.0.0.1');
    await once(dropper, 'listening');
    try {
      const error = await failure(sender({ smtpUrl: smtpUrl(PASSWORD, (dropper.address() as AddressInfo).port) }));
      expect(error.message).to.match(/^SMTP: (connection closed|connection error)$/);
    } finally {
      dropper.close();
    }
  });

  it('a closed port is transient', async () => {
    const closed = net.createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const refused = await failure(sender({ smtpUrl: smtpUrl(PASSWORD, closedPort) }));
    expect(refused.message).to.match(/^SMTP: (connection error|connection closed)$/);
  });

  it('a server that never greets is transient, after the greeting timeout', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => void sockets.push(socket));
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    try {
      const started = Date.now();
      const error = await failure(sender({ smtpUrl: smtpUrl(PASSWORD, (silent.address() as AddressInfo).port), greetingTimeoutMs: 300 }));
      expect(error.message).to.equal('SMTP: timeout');
      expect(Date.now() - started).to.be.below(5000);
    } finally {
      sockets.forEach((socket) => socket.destroy());
      silent.close();
    }
  });

  it('no error names the password, the user or the server address', () => {
    expect(errors.length).to.be.at.least(4);
    for (const error of errors) {
      const everything = [String(error), (error as Error).stack ?? '', inspect(error, { depth: 5, showHidden: true }), JSON.stringify(error)].join('\n');
      for (const secret of [PASSWORD, encodeURIComponent(PASSWORD), 'wrong-password-Zq9', USER, '127.0.0.1', String(port)]) {
        expect(everything, `${secret} in ${(error as Error).message}`).to.not.contain(secret);
      }
    }
  });

  it('classifies nodemailer errors by their codes alone', () => {
    const permanent = classifySmtpError({ code: 'EENVELOPE', command: 'RCPT TO', responseCode: 550, response: '550 5.1.1 <a@b> unknown', rejectedErrors: [{ responseCode: 550, response: '550 5.1.1 <a@b> unknown' }] });
    expect(permanent).to.be.instanceOf(PermanentSendFailure);
    expect(classifySmtpError({ code: 'EENVELOPE', command: 'API' })).to.be.instanceOf(PermanentSendFailure);
    for (const transient of [
      { code: 'EENVELOPE', command: 'MAIL FROM', responseCode: 550, response: '550 5.7.1 sender domain not allowed' },
      { code: 'EENVELOPE', command: 'RCPT TO', responseCode: 503, response: '503 5.5.1 bad sequence' },
      { code: 'ETIMEDOUT' },
      { code: 'ESOCKET' },
      new Error('anything else'),
      undefined,
    ]) {
      expect(classifySmtpError(transient), JSON.stringify(transient)).to.not.be.instanceOf(PermanentSendFailure);
    }
  });

  it('reads SMTP_URL strictly, without repeating it in its errors', () => {
    expect(parseSmtpUrl('smtps://u%40x:p%3Aw@smtp.example.com')).to.deep.equal({ secure: true, host: 'smtp.example.com', port: 465, user: 'u@x', password: 'p:w' });
    expect(parseSmtpUrl('smtp://smtp.example.com:2525')).to.deep.equal({ secure: false, host: 'smtp.example.com', port: 2525, user: null, password: null });
    expect(parseSmtpUrl('smtp://relay')).to.include({ port: 587 });
    for (const bad of ['http://u:hunter22@smtp.example.com', 'smtp://u:hunter22@', 'not a url hunter22', 'smtp://u:hunter22@smtp.example.com/path', 'smtp://u:hunter22@smtp.example.com?pool=true']) {
      expect(() => parseSmtpUrl(bad), bad).to.throw(/SMTP_URL/);
      expect(() => parseSmtpUrl(bad), bad).to.not.throw(/hunter22/);
    }
  });
});
