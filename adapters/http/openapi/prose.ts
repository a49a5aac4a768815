/** The words of /openapi.json that belong to no one route: the introduction and the tags. */

export const API_DESCRIPTION = `Collections in Latin America: debts (one-time charges) and batches of them, payment links,
subscriptions, contacts, products and direct debit, in MXN, ARS, PEN, COP, CLP and USD.

**Authentication.** \`POST /auth/login\` with your login key in \`x-api-key\` answers an \`accessToken\`
(4 hours) and a single-use \`refreshToken\`. Every other call sends two headers: \`x-api-key\` (your
facade key) and \`x-authorization-token\` (the access token, without \`Bearer\`). Keys work only on
a server of their environment (development, staging, production).

**Envelopes.** Success: \`{ data, requestId }\`; lists: \`{ data: [], meta, requestId }\`; errors:
\`{ error: { code, message, details? }, requestId }\`, where \`details[]\` (400 only) names every
offending field. Every answer carries \`X-Request-Id\`.

**Companies.** A client with several companies sends \`companyCode\` on every request: in the JSON
body of POST, PATCH and PUT, in the query string otherwise.

**Idempotency.** \`POST /v2/debts\` takes an \`Idempotency-Key\` that becomes the debt's
\`externalRequestId\`: a repeat answers the first debt and creates nothing. Payment links,
subscriptions, contacts and products have natural keys: a repeat is 409.

**Retries.** Each operation's \`x-idempotent\` says whether a request sent again after a lost
answer has the effect, and gets the answer, the first would have had: those are safe to retry
as they are. A natural key makes a repeat 409, and a repeated state change (cancel) 422.

**Rate limits.** A token bucket per API key (\`RateLimit-*\` headers); past it, 429 with
\`Retry-After\`. Money is in currency units with at most 2 decimals; dates are UTC.

**Webhooks.** Subscribe endpoints with \`POST /webhook-endpoints\`; each state change is delivered
as an event (see the webhooks section), signed in \`X-Signature\`.

An official TypeScript SDK wraps all of this (docs/sdk.md).`;

export const TAGS = [
  { name: 'Authentication', description: 'Log in with the login key and renew the session; the access token goes with every other call.' },
  { name: 'Debts', description: 'One-time charges to a known debtor, singly or in batches of up to 50, with their payments and overdue rule.' },
  { name: 'Payment links', description: 'Shareable payment URLs that need no known debtor; each carries an associated debt that receives the payment.' },
  { name: 'Subscriptions', description: 'Recurring charges: one debt per cycle, all generated upfront by the workers.' },
  { name: 'Contacts', description: 'The reusable debtors, keyed by your externalClientId.' },
  { name: 'Products', description: 'Optional categories of charges, keyed by name; direct debit is managed per product.' },
  { name: 'Cash and transfer', description: 'Payment instructions per debt (a transfer account or a cash voucher), the provider notifications that bring the money, and the money no debt took (unapplied payments).' },
  { name: 'Payment reminders', description: 'Email, SMS and WhatsApp reminders before and after the due date, each with the debt\'s paymentUrl: a policy per company, templates per channel and locale, contact preferences, and each debt\'s reminders.' },
  { name: 'Direct debit', description: 'Payment methods registered on the hosted enrollment page, adhesions per product, and enrollment links.' },
  { name: 'Webhooks', description: 'Endpoints that receive every event, signed with HMAC-SHA256 and retried for three days.' },
  { name: 'Events', description: 'Every state change as an event, with its deliveries; redeliver on demand.' },
  { name: 'Sandbox test helpers', description: 'Outside production only: pay, register payment methods, move the clock and read the messages the sandbox sender delivered, through the same use cases as real traffic.' },
  { name: 'Operations', description: 'Liveness and readiness probes for orchestrators and load balancers.' },
  { name: 'Webhook events', description: 'What each event type delivers to your endpoints.' },
];
