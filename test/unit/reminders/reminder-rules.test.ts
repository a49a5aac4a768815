import { expect } from 'chai';
import { maskRecipient, ineligibility } from '../../../internal/reminders/reminder';
import { policyProblems, type ReminderPolicy } from '../../../internal/reminders/reminder-policy';
import { dueSteps, sendTimeOf } from '../../../internal/reminders/schedule';
import { escapeHtml, render, smsEncoding, smsSegments, templateProblems, templateValues } from '../../../internal/reminders/template';
import { defaultTemplate } from '../../../internal/reminders/default-templates';
import { localTimeOf, zonedInstant } from '../../../internal/reminders/zoned-time';

const policy = (overrides: Partial<ReminderPolicy> = {}): ReminderPolicy => ({
  enabled: true,
  timeZone: 'America/Mexico_City',
  sendWindow: { from: '09:00', to: '20:00' },
  steps: [{ offsetDays: -3, channels: ['email'] }, { offsetDays: 0, channels: ['whatsapp', 'email'] }, { offsetDays: 3, channels: ['sms'] }],
  locale: null,
  ...overrides,
});

describe('reminders: scheduling math', () => {
  it('reads local days and times in the zone, across the date line', () => {
    expect(localTimeOf(new Date('2031-06-15T05:30:00Z'), 'America/Mexico_City')).to.deep.equal({ date: '2031-06-14', minutes: 23 * 60 + 30 });
    expect(localTimeOf(new Date('2031-06-15T14:00:00Z'), 'Pacific/Auckland')).to.deep.equal({ date: '2031-06-16', minutes: 2 * 60 });
    expect(localTimeOf(new Date('2031-06-15T00:00:00Z'), 'UTC')).to.deep.equal({ date: '2031-06-15', minutes: 0 });
  });

  it('maps a local time to its instant, through DST changes (a skipped time after the gap, a repeated one the first time)', () => {
    expect(zonedInstant('2031-06-15', 9 * 60, 'America/Mexico_City').toISOString()).to.equal('2031-06-15T15:00:00.000Z');
    // New York: EST (UTC-5) in January, EDT (UTC-4) in July.
    expect(zonedInstant('2031-01-15', 9 * 60, 'America/New_York').toISOString()).to.equal('2031-01-15T14:00:00.000Z');
    expect(zonedInstant('2031-07-15', 9 * 60, 'America/New_York').toISOString()).to.equal('2031-07-15T13:00:00.000Z');
    // 2031-03-09: clocks jump 02:00 → 03:00; 02:30 does not exist and maps to 03:30 EDT.
    expect(zonedInstant('2031-03-09', 2 * 60 + 30, 'America/New_York').toISOString()).to.equal('2031-03-09T07:30:00.000Z');
    // 2031-11-02: 01:30 happens twice; the first (EDT) is taken.
    expect(zonedInstant('2031-11-02', 60 + 30, 'America/New_York').toISOString()).to.equal('2031-11-02T05:30:00.000Z');
    // Santiago de Chile (southern hemisphere DST) and São Paulo (none since 2019).
    expect(zonedInstant('2031-01-15', 9 * 60, 'America/Santiago').toISOString()).to.equal('2031-01-15T12:00:00.000Z');
    expect(zonedInstant('2031-07-15', 9 * 60, 'America/Santiago').toISOString()).to.equal('2031-07-15T13:00:00.000Z');
  });

  it('has no step due outside the send window, and inside it the steps of today and of yesterday', () => {
    expect(dueSteps(policy(), new Date('2031-06-15T14:59:59Z')), '08:59:59 local').to.deep.equal([]);
    expect(dueSteps(policy(), new Date('2031-06-16T02:00:00Z')), '20:00 local').to.deep.equal([]);
    expect(dueSteps(policy({ enabled: false }), new Date('2031-06-15T15:00:00Z'))).to.deep.equal([]);
    const due = dueSteps(policy(), new Date('2031-06-15T15:00:00Z'));
    const today = due.filter((d) => d.day === '2031-06-15');
    expect(today.map((d) => [d.offsetDays, d.dueDate, d.scheduledFor.toISOString()])).to.deep.equal([
      [-3, '2031-06-18', '2031-06-15T15:00:00.000Z'],
      [0, '2031-06-15', '2031-06-15T15:00:00.000Z'],
      [3, '2031-06-12', '2031-06-15T15:00:00.000Z'],
    ]);
    const yesterday = due.filter((d) => d.day === '2031-06-14');
    expect(yesterday.map((d) => [d.offsetDays, d.dueDate])).to.deep.equal([[-3, '2031-06-17'], [0, '2031-06-14'], [3, '2031-06-11']]);
    expect(due.every((d) => d.day >= '2031-06-14'), 'a step whose day passed more than one day ago is never due').to.equal(true);
  });

  it('sends a step when the window of its local day opens, in the zone (a DST day included)', () => {
    expect(sendTimeOf(policy(), '2031-06-15', -3).toISOString()).to.equal('2031-06-12T15:00:00.000Z');
    const ny = policy({ timeZone: 'America/New_York', sendWindow: { from: '09:00', to: '17:00' } });
    expect(sendTimeOf(ny, '2031-03-10', -1).toISOString(), 'the DST day itself').to.equal('2031-03-09T13:00:00.000Z');
    expect(sendTimeOf(ny, '2031-03-10', -2).toISOString(), 'the day before, still EST').to.equal('2031-03-08T14:00:00.000Z');
  });

  it('reminds payable debts only; after the due date only OVERDUE ones; autopay debts get no step up to the due date', () => {
    expect(ineligibility({ status: 'PENDING', autopay: false }, -3)).to.equal(null);
    expect(ineligibility({ status: 'PARTIALLY_PAID', autopay: false }, 0)).to.equal(null);
    expect(ineligibility({ status: 'OVERDUE', autopay: false }, 3)).to.equal(null);
    expect(ineligibility({ status: 'PENDING', autopay: false }, 1)).to.equal('the debt is PENDING, not OVERDUE');
    expect(ineligibility({ status: 'PAID', autopay: false }, 0)).to.equal('the debt is PAID');
    expect(ineligibility({ status: 'CANCELLED', autopay: false }, 5)).to.equal('the debt is CANCELLED');
    expect(ineligibility({ status: 'PENDING', autopay: true }, 0)).to.equal('the debt is paid by autopay');
    expect(ineligibility({ status: 'OVERDUE', autopay: true }, 1)).to.equal(null);
  });

  it('names every problem of a policy by field', () => {
    expect(policyProblems(policy())).to.deep.equal([]);
    const fields = (p: Partial<ReminderPolicy>) => policyProblems(policy(p)).map((d) => d.field);
    expect(fields({ timeZone: 'Nowhere/City' })).to.deep.equal(['timeZone']);
    expect(fields({ sendWindow: { from: '10:00', to: '10:00' } })).to.deep.equal(['sendWindow.to']);
    expect(fields({ steps: [{ offsetDays: 2, channels: ['sms'] }, { offsetDays: 2, channels: ['sms', 'sms'] }] })).to.deep.equal(['steps[1].offsetDays', 'steps[1].channels[1]']);
    expect(fields({ steps: [{ offsetDays: 91, channels: ['email'] }, { offsetDays: -31, channels: ['email'] }] })).to.deep.equal(['steps[0].offsetDays', 'steps[1].offsetDays']);
  });
});

describe('reminders: rendering', () => {
  const values = templateValues({
    contactName: 'José <b>', amountCents: 150050, currency: 'MXN', dueDate: '2031-06-15', paymentUrl: 'https://pay.example.com/p/1?a=1&b=2', companyName: 'Acme & Co', locale: 'es-MX',
  });

  it('formats amount and date for the locale and currency (the hosted pages\' formatting)', () => {
    expect(values['debt.amount']).to.equal('$1,500.50');
    expect(values['debt.dueDate']).to.equal('15 de junio de 2031');
    const ar = templateValues({ contactName: '', amountCents: 150000, currency: 'ARS', dueDate: '2031-06-15', paymentUrl: '', companyName: '', locale: 'es-AR' });
    expect(ar['debt.amount'].replace(/\u00a0/g, ' ')).to.equal('$ 1.500,00');
    const en = templateValues({ contactName: '', amountCents: 99, currency: 'CLP', dueDate: '2031-06-15', paymentUrl: '', companyName: '', locale: 'en-US' });
    expect(en['debt.dueDate']).to.equal('June 15, 2031');
  });

  it('escapes every character of template and values in the HTML part, never in the text part', () => {
    const message = render({ channel: 'email', subject: 'Hola {{contact.name}}', body: 'Hola {{contact.name}} <i>\n\nPaga: {{debt.paymentUrl}}' }, values, 'https://x.example/unsubscribe/t');
    expect(message.subject).to.equal('Hola José <b>');
    expect(message.body).to.equal('Hola José <b> <i>\n\nPaga: https://pay.example.com/p/1?a=1&b=2');
    expect(message.html).to.include('<p>Hola José &lt;b&gt; &lt;i&gt;</p>');
    expect(message.html).to.include('<a href="https://pay.example.com/p/1?a=1&amp;b=2">');
    expect(message.html).to.include('href="https://x.example/unsubscribe/t"');
    expect(message.html).to.not.include('<b>');
    expect(escapeHtml(`<'&">`)).to.equal('&lt;&#39;&amp;&quot;&gt;');
  });

  it('refuses unknown variables naming the field, and knows the five', () => {
    expect(templateProblems({ subject: '{{company.name}}', body: '{{contact.name}} {{debt.amount}} {{debt.dueDate}} {{ debt.paymentUrl }}' })).to.deep.equal([]);
    const problems = templateProblems({ subject: '{{debt.total}}', body: '{{contact.email}} {{x}}' });
    expect(problems.map((p) => p.field)).to.deep.equal(['subject', 'body']);
    expect(problems[1]!.issue).to.include('{{contact.email}}').and.include('{{x}}');
  });

  it('counts SMS segments: GSM-7 160 alone, 153 per part (extension characters count twice); UCS-2 70 alone, 67 per part', () => {
    expect(smsSegments('a'.repeat(160))).to.equal(1);
    expect(smsSegments('a'.repeat(161))).to.equal(2);
    expect(smsSegments('a'.repeat(306))).to.equal(2);
    expect(smsSegments('a'.repeat(307))).to.equal(3);
    expect(smsSegments('€'.repeat(80)), 'the euro sign takes two septets').to.equal(1);
    expect(smsSegments('€'.repeat(81))).to.equal(2);
    expect(smsEncoding('Paga aqui: ñ é ü ¿¡')).to.equal('GSM-7');
    expect(smsEncoding('Pagá aquí')).to.equal('UCS-2');
    expect(smsSegments('á'.repeat(70))).to.equal(1);
    expect(smsSegments('á'.repeat(71))).to.equal(2);
    expect(smsSegments('á'.repeat(134))).to.equal(2);
    expect(smsSegments('á'.repeat(135))).to.equal(3);
  });

  it('the default Spanish SMS stays GSM-7 and in one segment with a short URL', () => {
    const template = defaultTemplate('sms', 'es-CO');
    const message = render({ channel: 'sms', ...template }, { ...values, 'debt.paymentUrl': 'https://pay.example.com/p/1', 'company.name': 'Acme' }, null);
    expect(smsEncoding(message.body)).to.equal('GSM-7');
    expect(message.segments).to.equal(1);
  });

  it('masks recipients', () => {
    expect(maskRecipient('ana@example.com')).to.equal('an***@example.com');
    expect(maskRecipient('a@example.com')).to.equal('***@example.com');
    expect(maskRecipient('+525512345678')).to.equal('+52******5678');
    expect(maskRecipient(null)).to.equal(null);
  });
});
