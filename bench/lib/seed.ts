import { type BenchConnection, benchDialect } from './environment';

/**
 * A large debts table for the list scenarios, written straight into the bench database with
 * multi-row INSERTs (the API would take hours to create a million debts one by one).
 *
 * Shape: the demo tenant's organization and company plus `organizations - 1` more, each with
 * one company, one product and `contactsPerOrganization` contacts. Debts are generated in
 * creation order over the last 365 days, each one for a company drawn at random (the demo
 * company gets `demoDebts` of them, the others share the rest), so every company's rows are
 * spread over the whole clustered index as they are in a table written by many tenants over a
 * year. About `batchShare` of the debts come in batches of 50 (same company, same instant, one
 * batch id). Statuses follow the due date (created + 30 days): mostly PAID or OVERDUE once
 * due, mostly PENDING before; a few PENDING past due (not yet marked by the overdue job),
 * PARTIALLY_PAID and CANCELLED. Amounts are log-uniform between 100.00 and 20,000.00.
 * A fixed PRNG seed makes two runs seed the same data.
 *
 * The session runs with foreign_key_checks and unique_checks off (PostgreSQL: session_replication_role
 * replica, which skips the foreign key triggers; the generator guarantees both); the indexes are
 * the migration's. What differs per server is in bench/lib/environment.ts (BenchDialect).
 */
export interface SeedPlan {
  organizations: number;
  contactsPerOrganization: number;
  debts: number;
  demoDebts: number;
  /** Share of debts that belong to a 50-item batch. */
  batchShare: number;
  rowsPerInsert: number;
  /**
   * Drop the debts table's secondary indexes for the load and build them again afterwards
   * (one sorted build each instead of a million random inserts: several times faster). The
   * rebuilt definitions are checked against the migration's.
   */
  deferIndexes: boolean;
}

export interface SeedResult {
  organizations: number;
  companies: number;
  contacts: number;
  debts: number;
  demoDebts: number;
  demoBatches: number;
  seconds: number;
  debtsPerSecond: number;
  /** Seconds spent rebuilding the secondary indexes (included in `seconds`), or null. */
  indexSeconds: number | null;
  /** Values the list scenarios filter by, taken from the demo company's seeded rows. */
  probe: {
    externalClientId: string;
    externalClientIdDebts: number;
    batchId: string;
    createdAtFrom: string;
    createdAtTo: string;
    minAmount: number;
    maxAmount: number;
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;
const BATCH_SIZE = 50;

export async function seedDebts(databaseUrl: string, plan: SeedPlan, now: number, log: (message: string) => void): Promise<SeedResult> {
  const started = Date.now();
  const random = mulberry32(20261122);
  const dialect = benchDialect(databaseUrl);
  const loadSession = async () => {
    const c = await dialect.connect(databaseUrl);
    for (const statement of dialect.bulkLoadSetup) await c.query(statement);
    return c;
  };
  const conn = await loadSession();
  const extraConnections: BenchConnection[] = [];
  try {
    const companyRows = await conn.query<{ id: number; organization_id: number }>('SELECT id, organization_id FROM companies ORDER BY id');
    if (companyRows.length !== 1) throw new Error(`seed expects the demo tenant's single company, found ${companyRows.length}`);
    const demo = { companyId: Number(companyRows[0]!.id), organizationId: Number(companyRows[0]!.organization_id) };
    const insert = (table: string, columns: string[], rows: unknown[][]) => conn.insertRows(table, columns, rows);

    // Organizations and companies (the demo one first), one product each.
    const extra = plan.organizations - 1;
    const orgCreated = now - 400 * DAY_MS;
    await insert('organizations', ['name', 'created_at'], range(extra).map((i) => [`Bench seed organization ${i + 1}`, orgCreated]));
    const orgRows = await conn.query<{ id: number }>(
      "SELECT id FROM organizations WHERE name LIKE 'Bench seed organization %' ORDER BY id",
    );
    await insert(
      'companies',
      ['organization_id', 'code', 'name', 'default_currency'],
      orgRows.map((o, i) => [o.id, `SEED-${i + 1}`, `Seed company ${i + 1}`, 'MXN']),
    );
    const seededCompanies = await conn.query<{ id: number; organization_id: number }>(
      "SELECT id, organization_id FROM companies WHERE code LIKE 'SEED-%' ORDER BY id",
    );
    const companies = [demo, ...seededCompanies.map((c) => ({ companyId: Number(c.id), organizationId: Number(c.organization_id) }))];
    await insert(
      'products',
      ['organization_id', 'company_id', 'name', 'active', 'created_at', 'updated_at'],
      companies.map((c) => [c.organizationId, c.companyId, 'Seeded product', 1, orgCreated, orgCreated]),
    );
    const productRows = await conn.query<{ id: number; company_id: number }>("SELECT id, company_id FROM products WHERE name = 'Seeded product'");
    const productOf = new Map(productRows.map((p) => [Number(p.company_id), Number(p.id)]));

    // Contacts: `seed-<org>-<n>`, no phones (an empty list needs no contact_phones rows).
    let contactNo = 0;
    const contactRows: unknown[][] = [];
    const flushContacts = async () => {
      if (contactRows.length > 0) await insert('contacts', CONTACT_COLUMNS, contactRows.splice(0));
    };
    for (const [orgIndex, c] of companies.entries()) {
      for (let i = 1; i <= plan.contactsPerOrganization; i++) {
        contactNo += 1;
        const name = `Seed Contact ${orgIndex}-${i}`;
        contactRows.push([
          c.organizationId, `S${contactNo.toString(36).padStart(19, '0')}`, `seed-${orgIndex}-${i}`, name, name.toLowerCase(),
          `seed.${orgIndex}.${i}@example.com`, '[]', 1, orgCreated, orgCreated,
        ]);
        if (contactRows.length >= plan.rowsPerInsert) await flushContacts();
      }
    }
    await flushContacts();
    const contactIdRows = await conn.query<{ id: number; organization_id: number; external_client_id: string }>(
      "SELECT id, organization_id, external_client_id FROM contacts WHERE external_client_id LIKE 'seed-%' ORDER BY id",
    );
    const contactsOf = new Map<number, { id: number; externalClientId: string }[]>();
    for (const row of contactIdRows) {
      const list = contactsOf.get(Number(row.organization_id)) ?? [];
      list.push({ id: Number(row.id), externalClientId: String(row.external_client_id) });
      contactsOf.set(Number(row.organization_id), list);
    }
    log(`seeded ${companies.length} organizations/companies and ${contactIdRows.length} contacts in ${secondsSince(started)} s`);

    // Debts, oldest first, in statements of rowsPerInsert rows; the next statement is built
    // while the previous one runs.
    const demoShare = plan.demoDebts / plan.debts;
    const batchProbability = plan.batchShare / (BATCH_SIZE - (BATCH_SIZE - 1) * plan.batchShare);
    const start = now - 365 * DAY_MS;
    const span = 365 * DAY_MS - 60_000;
    const today = new Date(now).toISOString().slice(0, 10);
    const demoContactDebts = new Map<number, number>();
    const demoBatches: string[] = [];
    let demoCount = 0;
    let written = 0;
    const indexes = plan.deferIndexes ? await dialect.secondaryIndexes(conn, 'debts') : [];
    await dialect.dropIndexes(conn, 'debts', indexes);
    // Two statements in flight on two connections (the server parses and indexes one per core).
    const writers = [conn, await loadSession()];
    extraConnections.push(writers[1]!);
    const inFlight: Promise<unknown>[] = [];
    let statementNo = 0;
    let rows: unknown[][] = [];
    let lastReport = Date.now();
    for (let n = 0; n < plan.debts; ) {
      const isDemo = random() < demoShare;
      const company = isDemo ? demo : companies[1 + Math.floor(random() * (companies.length - 1))]!;
      const size = Math.min(random() < batchProbability ? BATCH_SIZE : 1, plan.debts - n);
      const batchId = size === BATCH_SIZE ? `bat_seed${n.toString(36)}` : null;
      if (batchId && isDemo) demoBatches.push(batchId);
      const createdAt = start + Math.floor((n / plan.debts) * span);
      const dueDate = new Date(createdAt + 30 * DAY_MS).toISOString().slice(0, 10);
      const contacts = contactsOf.get(company.organizationId)!;
      for (let i = 0; i < size; i++, n++) {
        const contact = contacts[Math.floor(random() * contacts.length)]!;
        if (isDemo) {
          demoCount += 1;
          demoContactDebts.set(contact.id, (demoContactDebts.get(contact.id) ?? 0) + 1);
        }
        const amountCents = Math.round(10_000 * Math.exp(random() * Math.log(200)));
        const status = statusFor(dueDate < today, random());
        const paid = status === 'PAID' ? amountCents : status === 'PARTIALLY_PAID' ? Math.floor(amountCents / 2) : 0;
        const withProduct = random() < 0.5;
        rows.push([
          company.organizationId, company.companyId, `seed${n.toString(36)}`, batchId, contact.id, 0,
          withProduct ? productOf.get(company.companyId)! : null, status, amountCents, paid, 'MXN', dueDate, 1, 1,
          random() < 0.5 ? `Seeded debt ${n}` : null, null, null, 0,
          withProduct ? 'DEFAULT_PAYMENT_METHODS_DISABLED_FOR_COMPANY' : 'NO_PRODUCT', createdAt + i, createdAt + i,
        ]);
      }
      if (rows.length >= plan.rowsPerInsert || n >= plan.debts) {
        if (inFlight.length >= writers.length) await inFlight.shift();
        const chunk = rows;
        rows = [];
        const writer = writers[statementNo++ % writers.length]!;
        const statement = writer.insertRows('debts', DEBT_COLUMNS, chunk);
        statement.catch(() => undefined); // awaited below; this only keeps a failure from being "unhandled" meanwhile
        inFlight.push(statement);
        written += chunk.length;
        if (Date.now() - lastReport > 10_000) {
          lastReport = Date.now();
          log(`  ${written} debts written (${secondsSince(started)} s)`);
        }
      }
    }
    await Promise.all(inFlight);
    let indexSeconds: number | null = null;
    if (indexes.length > 0) {
      const t0 = Date.now();
      log(`  ${written} debts written (${secondsSince(started)} s); building ${indexes.length} secondary indexes …`);
      await dialect.createIndexes(conn, 'debts', indexes);
      indexSeconds = Math.round((Date.now() - t0) / 100) / 10;
      const rebuilt = await dialect.secondaryIndexes(conn, 'debts');
      const differs = JSON.stringify(rebuilt.map((i) => i.definition).sort()) !== JSON.stringify(indexes.map((i) => i.definition).sort());
      if (differs) throw new Error(`debts indexes after the rebuild differ from the migration's:\n${rebuilt.map((i) => i.definition).join('\n')}`);
    }
    // Rows written straight into the tables bypass the repositories' tallies (the unfiltered
    // lists' exact totals, adapters/persistence/knex/tallies.ts): count them again, every owner's
    // rows into its shard 0.
    await conn.query('DELETE FROM debt_tallies');
    await conn.query(
      "INSERT INTO debt_tallies (company_id, status, shard, live) SELECT company_id, status, 0, COUNT(*) FROM debts WHERE status <> 'CANCELLED' GROUP BY company_id, status",
    );
    await conn.query('DELETE FROM contact_tallies');
    await conn.query('INSERT INTO contact_tallies (organization_id, shard, live) SELECT organization_id, 0, COUNT(*) FROM contacts GROUP BY organization_id');
    await dialect.analyze(conn, ['organizations', 'companies', 'products', 'contacts', 'debts']);

    const demoContacts = contactsOf.get(demo.organizationId)!;
    const byDebts = demoContacts
      .map((c) => ({ ...c, debts: demoContactDebts.get(c.id) ?? 0 }))
      .sort((a, b) => a.debts - b.debts || a.id - b.id);
    const median = byDebts[Math.floor(byDebts.length / 2)]!;
    const seconds = (Date.now() - started) / 1000;
    return {
      organizations: companies.length,
      companies: companies.length,
      contacts: contactIdRows.length,
      debts: plan.debts,
      demoDebts: demoCount,
      demoBatches: demoBatches.length,
      seconds: Math.round(seconds * 10) / 10,
      debtsPerSecond: Math.round(plan.debts / seconds),
      indexSeconds,
      probe: {
        externalClientId: median.externalClientId,
        externalClientIdDebts: median.debts,
        batchId: demoBatches[Math.floor(demoBatches.length / 2)] ?? 'bat_none',
        // 30 days, two to three months back: about 8 % of a year of debts.
        createdAtFrom: new Date(now - 90 * DAY_MS).toISOString().slice(0, 10),
        createdAtTo: new Date(now - 61 * DAY_MS).toISOString().slice(0, 10),
        minAmount: 1000,
        maxAmount: 1500,
      },
    };
  } finally {
    await Promise.allSettled([conn, ...extraConnections].map((c) => c.end()));
  }
}

const CONTACT_COLUMNS = [
  'organization_id', 'code', 'external_client_id', 'name', 'name_search', 'email', 'phones', 'active', 'created_at', 'updated_at',
];

const DEBT_COLUMNS = [
  'organization_id', 'company_id', 'external_request_id', 'batch_id', 'contact_id', 'contact_created_inline', 'product_id',
  'status', 'amount_cents', 'amount_paid_cents', 'currency', 'due_date', 'allow_overdue_payment', 'allow_partial_payments',
  'description', 'additional_data', 'payment_methods', 'autopay', 'autopay_reason', 'created_at', 'updated_at',
];

/** Stored status from whether the debt is due and a uniform draw. */
function statusFor(pastDue: boolean, r: number): string {
  if (pastDue) {
    if (r < 0.6) return 'PAID';
    if (r < 0.85) return 'OVERDUE';
    if (r < 0.88) return 'PENDING'; // past due, not marked yet: listed as OVERDUE
    if (r < 0.93) return 'PARTIALLY_PAID';
    return 'CANCELLED';
  }
  if (r < 0.75) return 'PENDING';
  if (r < 0.9) return 'PAID';
  if (r < 0.95) return 'PARTIALLY_PAID';
  return 'CANCELLED';
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

function secondsSince(start: number): string {
  return ((Date.now() - start) / 1000).toFixed(1);
}

/** Small deterministic PRNG (uniform in [0, 1)). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
