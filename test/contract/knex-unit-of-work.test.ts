import { expect } from 'chai';
import type { Knex } from 'knex';
import { migrateLatest, openKnex } from '../../adapters/persistence/knex/connection';
import { DEADLOCK_ATTEMPTS, KnexUnitOfWork, knexRepositories } from '../../adapters/persistence/knex/knex-unit-of-work';
import type { Repositories } from '../../ports/unit-of-work';
import { ConflictError, InvalidRequestError } from '../../internal/shared/errors';
import { createTestDatabase, databaseAvailable, DATABASE_KINDS, type TestDatabase } from '../support/databases';
import { testEventWriting } from '../support/event-writing';
import { newContact, newDebt, newLink, newProduct, newTenant, rejectionOf, T1, uid, type DebtFixture } from './fixtures';
import { newSubscription } from './subscriptions.contract';
import { newReminder } from './reminders.contract';
import { testSecretBox } from '../support/secrets';
import { checkTallies } from '../support/tally-check';
import { SharedTransactionStopped, shareTransaction } from '../../adapters/persistence/knex/shared-transaction';

/** The error MySQL/MariaDB raises on the victim of a deadlock, as mysql2 reports it. */
const deadlock = (): Error => Object.assign(new Error('Deadlock found when trying to get lock; try restarting transaction'), { code: 'ER_LOCK_DEADLOCK', errno: 1213 });

for (const kind of DATABASE_KINDS) {
  describe(`KnexUnitOfWork [${kind}]`, function () {
    let database: TestDatabase | null = null;
    let db: Knex;
    let uow: KnexUnitOfWork;
    let repos: Repositories;

    before(async function () {
      if (!(await databaseAvailable(kind))) this.skip();
      database = await createTestDatabase(kind);
      db = openKnex(database.url);
      await migrateLatest(db);
      uow = new KnexUnitOfWork(db, { events: testEventWriting(), secrets: testSecretBox() });
      repos = knexRepositories(db, { events: testEventWriting(), secrets: testSecretBox() });
    });

    /** The statements matching `pattern` that `db` runs until stop(). */
    function recordStatements(pattern: RegExp): { statements: string[]; stop(): void } {
      const statements: string[] = [];
      const onQuery = (q: { sql: string }) => {
        if (pattern.test(q.sql)) statements.push(q.sql);
      };
      db.on('query', onQuery);
      return { statements, stop: () => db.off('query', onQuery) };
    }

    after(async () => {
      if (!database) return;
      await db.destroy();
      await database.drop();
    });

    async function debtTenant(): Promise<DebtFixture> {
      const tenant = await newTenant(repos);
      const contact = await repos.contacts.insert(newContact(tenant.organization.id));
      const product = await repos.products.insert(newProduct(tenant.company));
      return { ...tenant, contact, product };
    }

    it('runs a deadlock victim again from the start and commits only the last run', async () => {
      const t = await debtTenant();
      let runs = 0;
      const debt = await uow.run(async (tx) => {
        runs++;
        const written = await tx.debts.insert(newDebt(t, { externalRequestId: `victim-${runs}` }));
        if (runs < 3) throw deadlock();
        return written;
      });
      expect(runs).to.equal(3);
      expect(debt.externalRequestId).to.equal('victim-3');
      expect(await repos.debts.findByExternalRequestId(t.company.id, 'victim-1')).to.equal(null);
      expect(await repos.debts.findByExternalRequestId(t.company.id, 'victim-2')).to.equal(null);
    });

    it(`gives up after ${DEADLOCK_ATTEMPTS} deadlocks in a row and rethrows the last one`, async () => {
      let runs = 0;
      const error = await rejectionOf(uow.run(async () => {
        runs++;
        throw deadlock();
      }));
      expect(runs).to.equal(DEADLOCK_ATTEMPTS);
      expect((error as { errno?: number }).errno).to.equal(1213);
    });

    it('never runs the work again for any other error', async () => {
      let runs = 0;
      const failure = Object.assign(new Error('Lock wait timeout exceeded'), { code: 'ER_LOCK_WAIT_TIMEOUT', errno: 1205 });
      const error = await rejectionOf(uow.run(async () => {
        runs++;
        throw failure;
      }));
      expect(runs).to.equal(1);
      expect(error).to.equal(failure);
    });

    it("keeps the debt writes of one transaction on one tally shard of their company (two grouped transactions cannot lock shards in opposite orders)", async () => {
      const t = await debtTenant();
      await uow.run(async (tx) => {
        for (let i = 0; i < 6; i++) await tx.debts.insert(newDebt(t, { externalRequestId: `shard-${i}` }));
      });
      const shards: { live: number | string }[] = await db('debt_tallies').where({ company_id: t.company.id }).select('live');
      expect(shards.map((s) => Number(s.live))).to.deep.equal([6]);
    });

    it('writes the tallies a unit of work changed once, just before its commit; a list inside it counts them; a rollback drops them', async () => {
      const t = await newTenant(repos);
      const org = t.organization.id;
      const { statements: tallyWrites, stop } = recordStatements(/insert into .?contact_tallies/i);
      try {
        const inside = await uow.run(async (tx) => {
          for (let i = 0; i < 4; i++) await tx.contacts.insert(newContact(org));
          expect(tallyWrites).to.have.length(0);
          // A full page: the total is the tally's, with this transaction's writes in it.
          const page = await tx.contacts.list(org, {}, { page: 1, limit: 2 });
          await tx.contacts.insert(newContact(org));
          return page.total;
        });
        expect(inside).to.equal(4);
        expect(tallyWrites).to.have.length(2);
        await rejectionOf(uow.run(async (tx) => {
          await tx.contacts.insert(newContact(org));
          throw new Error('rolled back');
        }));
      } finally {
        stop();
      }
      expect((await repos.contacts.list(org, {}, { page: 1, limit: 2 })).total).to.equal(5);
      const shards: { live: number | string }[] = await db('contact_tallies').where({ organization_id: org }).select('live');
      expect(shards.map((s) => Number(s.live))).to.deep.equal([5]);
    });

    it("writes the phone index rows of a unit of work's contacts in one INSERT before its commit; a phone search or a phone change inside it sees them", async () => {
      const t = await newTenant(repos);
      const org = t.organization.id;
      const { statements: phoneInserts, stop } = recordStatements(/insert into .?contact_phones/i);
      const phone = (n: string) => [{ type: 'MOBILE' as const, number: n, primary: true, description: 'MOBILE' }];
      let found: { search: number[]; created: number; changed: unknown };
      try {
        await uow.run(async (tx) => {
          for (let i = 0; i < 3; i++) await tx.contacts.insert(newContact(org, { phones: phone(`+52 55 1234 56${i}0`) }));
          expect(phoneInserts).to.have.length(0);
        });
        expect(phoneInserts).to.have.length(1);
        found = await uow.run(async (tx) => {
          const created = await tx.contacts.insert(newContact(org, { phones: phone('+52 55 9999 0001') }));
          const search = await tx.contacts.list(org, { phoneDigits: '99990001' }, { page: 1, limit: 10 });
          const changed = await tx.contacts.update(org, created.id, { phones: phone('+52 55 8888 0002'), updatedAt: new Date() });
          return { search: search.items.map((c) => c.id), created: created.id, changed: changed.phones };
        });
        expect(found.search).to.deep.equal([found.created]);
        expect(found.changed).to.deep.equal(phone('+52 55 8888 0002'));
      } finally {
        stop();
      }
      const rows: { contact_id: number }[] = await db('contact_phones').where({ organization_id: org }).select('contact_id');
      expect(rows).to.have.length(4);
      expect((await repos.contacts.list(org, { phoneDigits: '99990001' }, { page: 1, limit: 10 })).items).to.have.length(0);
      expect((await repos.contacts.list(org, { phoneDigits: '88880002' }, { page: 1, limit: 10 })).items.map((c) => c.id)).to.deep.equal([found.created]);
    });

    it('goes on after a duplicate key it handled inside the transaction, and commits what it wrote before and after', async () => {
      // PostgreSQL aborts a transaction at its first failed statement: there the INSERT skips the
      // taken key instead of failing (and takes no savepoint), so the rest of the transaction works.
      const t = await debtTenant();
      const taken = await repos.debts.insert(newDebt(t));
      const savepoints = recordStatements(/savepoint/i);
      const written = await uow.run(async (tx) => {
        const before = await tx.debts.insert(newDebt(t));
        const conflict = await rejectionOf(tx.debts.insert(newDebt(t, { externalRequestId: taken.externalRequestId })));
        expect(conflict).to.be.instanceOf(ConflictError);
        const after = await tx.debts.insert(newDebt(t));
        return [before, after];
      });
      savepoints.stop();
      expect(savepoints.statements).to.deep.equal([]);
      for (const debt of written) expect((await repos.debts.findByExternalRequestId(t.company.id, debt.externalRequestId))?.id).to.equal(debt.id);
    });

    it("writes the rows a group's works insert into one table side by side in one INSERT, each work getting its own row's id", async () => {
      const org = (await newTenant(repos)).organization.id;
      const wanted = Array.from({ length: 5 }, () => newContact(org));
      const inserts = recordStatements(/^insert into [`"]contacts[`"]/i);
      const created = await Promise.all(wanted.map((contact) => uow.runGrouped(org, (tx) => tx.contacts.insert(contact))));
      inserts.stop();
      expect(inserts.statements).to.have.length(1);
      expect(new Set(created.map((c) => c.id)).size).to.equal(5);
      for (const [i, contact] of created.entries()) {
        expect(contact.externalClientId).to.equal(wanted[i]!.externalClientId);
        expect((await repos.contacts.findByExternalClientId(org, contact.externalClientId))?.id).to.equal(contact.id);
      }
      await checkTallies(db);
    });

    it('lets the works of a group that read before they insert still share one INSERT, and writes their outbox entries in one INSERT before the commit', async () => {
      const org = (await newTenant(repos)).organization.id;
      const inserts = recordStatements(/^insert (ignore )?into [`"](contacts|job_outbox)[`"]/i);
      const created = await Promise.all(
        Array.from({ length: 4 }, (_, i) =>
          uow.runGrouped(org, async (tx) => {
            expect(await tx.contacts.findByExternalClientId(org, `reader-${i}`)).to.equal(null);
            expect(await tx.contacts.findByExternalClientId(org, `reader-${i}-again`)).to.equal(null);
            const contact = await tx.contacts.insert(newContact(org, { externalClientId: `reader-${i}` }));
            await tx.outbox.add({ name: 'subscription.generate', jobId: `outbox-${org}-${i}`, data: { subscriptionId: contact.id, resume: 0, fromDate: null } } as never, T1);
            return contact;
          }),
        ),
      );
      inserts.stop();
      const contactInserts = inserts.statements.filter((sql) => /contacts/.test(sql));
      const outboxInserts = inserts.statements.filter((sql) => /job_outbox/.test(sql));
      expect(contactInserts).to.have.length(1);
      expect(outboxInserts).to.have.length(1);
      for (const contact of created) expect((await repos.contacts.findByExternalClientId(org, contact.externalClientId))?.id).to.equal(contact.id);
      const entries = (await repos.outbox.pending(1000)).filter((e) => e.jobId.startsWith(`outbox-${org}-`));
      expect(entries.map((e) => e.jobId)).to.have.members(created.map((_, i) => `outbox-${org}-${i}`));
    });

    it("lets the reads by key of a group's works meet in one SELECT, each work getting its own row or null", async () => {
      const { organization, company } = await newTenant(repos);
      const org = organization.id;
      const [ana, bob] = [await repos.contacts.insert(newContact(org)), await repos.contacts.insert(newContact(org))];
      const gym = await repos.products.insert(newProduct(company, { name: 'Gym' }));
      const selects = recordStatements(/^select .* from [`"](contacts|products)[`"]/i);
      const keys = [ana.externalClientId, bob.externalClientId, 'nobody', ana.externalClientId];
      const found = await Promise.all(
        keys.map((key, i) =>
          uow.runGrouped(org, async (tx) => [await tx.contacts.findByExternalClientId(org, key), await tx.products.findByName(company.id, i % 2 === 0 ? 'Gym' : 'Pool')] as const),
        ),
      );
      selects.stop();
      expect(found.map(([contact]) => contact?.id ?? null)).to.deep.equal([ana.id, bob.id, null, ana.id]);
      expect(found.map(([, product]) => product?.id ?? null)).to.deep.equal([gym.id, null, gym.id, null]);
      expect(selects.statements).to.have.length(2);
    });

    it("lets a group's reminder claims lock and read what each needs in one statement per kind, each getting its own (null: another tenant's, unknown)", async () => {
      const t = await debtTenant();
      const other = await debtTenant();
      const [org, companyId] = [t.organization.id, t.company.id];
      const [d1, d2] = [await repos.debts.insert(newDebt(t)), await repos.debts.insert(newDebt(t))];
      const foreign = await repos.debts.insert(newDebt(other));
      const [r1, r2] = await repos.reminders.insertMissing([newReminder(t, d1.id), newReminder(t, d2.id)]);
      await repos.reminders.savePolicy(org, companyId, { enabled: true, timeZone: 'America/Bogota', sendWindow: { from: '08:00', to: '20:00' }, steps: [], locale: null }, T1);
      await repos.reminders.saveTemplate({ companyId, channel: 'email', locale: 'es-MX', subject: 'Hola', body: 'Cuerpo', updatedAt: T1 });
      await repos.reminders.savePreferences(t.contact.id, { email: true, sms: false, whatsapp: true }, T1);
      const claims = [
        { reminder: r1!.id, debt: d1.id, contact: t.contact.id },
        { reminder: r2!.id, debt: d2.id, contact: t.contact.id },
        { reminder: 999_999_999, debt: foreign.id, contact: other.contact.id },
      ];
      const selects = recordStatements(/^select /i);
      const found = await Promise.all(
        claims.map((claim) =>
          uow.runGrouped('claims', async (tx) => ({
            reminder: (await tx.reminders.lockById(claim.reminder))?.id ?? null,
            scope: (await tx.tenancy.findCompanyWithOrganization(companyId))?.organization.id ?? null,
            debt: (await tx.debts.lockById(companyId, claim.debt))?.id ?? null,
            again: (await tx.debts.findById(companyId, claim.debt))?.id ?? null,
            contact: (await tx.reminders.findContact(org, claim.contact))?.id ?? null,
            preferences: await tx.reminders.findPreferences(claim.contact),
            policy: (await tx.reminders.findPolicy(companyId))?.timeZone ?? null,
            template: (await tx.reminders.findTemplate(companyId, 'email', claim.contact === t.contact.id ? 'es-MX' : 'en-US'))?.subject ?? null,
          })),
        ),
      );
      selects.stop();
      const mine = { scope: org, preferences: { email: true, sms: false, whatsapp: true }, policy: 'America/Bogota', template: 'Hola' };
      expect(found).to.deep.equal([
        { ...mine, reminder: r1!.id, debt: d1.id, again: d1.id, contact: t.contact.id },
        { ...mine, reminder: r2!.id, debt: d2.id, again: d2.id, contact: t.contact.id },
        { reminder: null, scope: org, debt: null, again: null, contact: null, preferences: null, policy: 'America/Bogota', template: null },
      ]);
      // One statement per kind for the group (the debts' lock, then their views), where one work alone sends as many.
      const kinds = ['reminders', 'companies', 'debts', 'contacts', 'contact_preferences', 'reminder_policies', 'reminder_templates'];
      const perKind = kinds.map((table) => selects.statements.filter((sql) => new RegExp(`from [\`"]${table}[\`"]( as [\`"]?[a-z][\`"]?)?( |$)`, 'i').test(sql)).length);
      expect(perKind).to.deep.equal([1, 1, 3, 1, 1, 1, 1]);
    });

    it('lets the reads by key made at one moment outside a transaction meet in one SELECT per kind, each caller getting what its read alone gets', async () => {
      const t = await debtTenant();
      const [org, companyId] = [t.organization.id, t.company.id];
      const debt = await repos.debts.insert(newDebt(t));
      const padded = await repos.debts.insert(newDebt(t, { externalRequestId: `padded-${uid()} ` }));
      const link = await repos.paymentLinks.insert(newLink(t, { externalPaymentLinkId: `ord-${uid()}` }));
      const subscription = await repos.subscriptions.insert(newSubscription(t));
      const other = await newTenant(repos);
      const reads: (() => Promise<{ id: number } | null>)[] = [
        () => repos.contacts.findByCode(org, t.contact.code),
        () => repos.contacts.findByCode(org, 'nobody'),
        () => repos.products.findById(companyId, t.product.id),
        () => repos.products.findById(companyId, t.product.id + 1000),
        () => repos.debts.findByExternalRequestId(companyId, debt.externalRequestId),
        () => repos.debts.findByExternalRequestId(companyId, padded.externalRequestId.trimEnd()),
        () => repos.debts.findByExternalRequestId(companyId, 'nobody'),
        () => repos.debts.findByExternalRequestId(companyId, padded.externalRequestId),
        () => repos.paymentLinks.findByCode(companyId, link.code),
        () => repos.paymentLinks.findByExternalPaymentLinkId(org, link.externalPaymentLinkId!),
        () => repos.paymentLinks.findByExternalPaymentLinkId(org, 'nobody'),
        () => repos.subscriptions.findByCode(companyId, subscription.code),
        () => repos.subscriptions.findByCode(companyId, 'nobody'),
        // Another tenant's keys find nothing, read alone or together.
        () => repos.contacts.findByCode(other.organization.id, t.contact.code),
        () => repos.products.findById(other.company.id, t.product.id),
        () => repos.debts.findByExternalRequestId(other.company.id, debt.externalRequestId),
        () => repos.paymentLinks.findByCode(other.company.id, link.code),
        () => repos.paymentLinks.findByExternalPaymentLinkId(other.organization.id, link.externalPaymentLinkId!),
        () => repos.subscriptions.findByCode(other.company.id, subscription.code),
      ];
      const idsOf = (found: ({ id: number } | null)[]) => found.map((row) => row?.id ?? null);
      const alone: ({ id: number } | null)[] = [];
      for (const read of reads) alone.push(await read());
      const selects = recordStatements(/^select /i);
      const together = await Promise.all(reads.map((read) => read()));
      selects.stop();
      expect(idsOf(together)).to.deep.equal(idsOf(alone));
      const paddedAlone = kind === 'mysql' ? padded.id : null; // MySQL compares with PAD SPACE
      expect(idsOf(alone)).to.deep.equal([t.contact.id, null, t.product.id, null, debt.id, paddedAlone, null, padded.id, link.id, link.id, null, subscription.id, null, null, null, null, null, null, null]);
      // Per kind and tenant: contacts, products, debts, links by code and by externalPaymentLinkId, and subscriptions of
      // each; and the debt key that ends in a space, alone.
      expect(selects.statements).to.have.length(13);
    });

    it('fails only the caller whose key the database refuses when the reads of one moment meet (U+0000 on PostgreSQL)', async () => {
      const t = await debtTenant();
      const org = t.organization.id;
      const [found, refused, missing] = await Promise.all([
        repos.contacts.findByCode(org, t.contact.code),
        repos.contacts.findByCode(org, 'bad\u0000code').then((value) => value, (error: unknown) => error),
        repos.contacts.findByCode(org, 'nobody'),
      ]);
      expect(found?.id).to.equal(t.contact.id);
      expect(missing).to.equal(null);
      if (kind === 'postgres') expect(refused).to.be.instanceOf(InvalidRequestError);
      else expect(refused).to.equal(null); // a key no row holds: the read answered null, not a failure
    });

    it("answers a group's reads by key what each read alone would, trailing spaces included (MySQL compares with PAD SPACE)", async () => {
      const { organization, company } = await newTenant(repos);
      const padded = await repos.products.insert(newProduct(company, { name: 'Padded ', externalProductId: 'SKU-padded ' }));
      await repos.products.insert(newProduct(company, { name: 'Plain', externalProductId: 'SKU-plain' }));
      await repos.contacts.insert(newContact(organization.id, { externalClientId: 'padded ' }));
      await repos.paymentLinks.insert(newLink({ organization, company }, { externalPaymentLinkId: 'ord-padded ' }));
      const linkKeys = ['ord-padded', 'ord-padded ', 'ord-padded  ', 'ord-none'];
      const names = ['Padded', 'Padded ', 'Plain', 'Plain ', 'Plain  '];
      const skus = ['SKU-padded', 'SKU-padded ', 'SKU-plain', 'SKU-plain ', 'SKU-none'];
      const ids = [padded.id, padded.id + 1000, 999_999_999_999];
      const keys = ['padded', 'padded ', 'nobody'];
      const idsOf = (found: ({ id: number } | null)[]) => found.map((row) => row?.id ?? null);
      // One at a time: reads made at one moment would meet outside a transaction too.
      const oneByOne = async <K, T>(keys: K[], read: (key: K) => Promise<T>) => {
        const found: T[] = [];
        for (const key of keys) found.push(await read(key));
        return found;
      };
      const alone = [
        await oneByOne(names, (name) => repos.products.findByName(company.id, name)),
        await oneByOne(skus, (sku) => repos.products.findByExternalProductId(company.id, sku)),
        await oneByOne(ids, (id) => repos.products.findById(company.id, id)),
        await oneByOne(keys, (key) => repos.contacts.findByExternalClientId(organization.id, key)),
        await oneByOne(linkKeys, (key) => repos.paymentLinks.findByExternalPaymentLinkId(organization.id, key)),
      ];
      const grouped = <T>(read: (tx: Repositories) => Promise<T>) => uow.runGrouped(organization.id, read);
      const together = await Promise.all([
        Promise.all(names.map((name) => grouped((tx) => tx.products.findByName(company.id, name)))),
        Promise.all(skus.map((sku) => grouped((tx) => tx.products.findByExternalProductId(company.id, sku)))),
        Promise.all(ids.map((id) => grouped((tx) => tx.products.findById(company.id, id)))),
        Promise.all(keys.map((key) => grouped((tx) => tx.contacts.findByExternalClientId(organization.id, key)))),
        Promise.all(linkKeys.map((key) => grouped((tx) => tx.paymentLinks.findByExternalPaymentLinkId(organization.id, key)))),
      ]);
      // And at one moment outside a transaction.
      expect(idsOf(await Promise.all(linkKeys.map((key) => repos.paymentLinks.findByExternalPaymentLinkId(organization.id, key))))).to.deep.equal(idsOf(alone[4]!));
      expect(together.map(idsOf)).to.deep.equal(alone.map(idsOf));
      expect(alone[2]!.map((p) => p?.id ?? null)).to.deep.equal([padded.id, null, null]);
    });

    it("on a taken key in a group's INSERT, each work meets only its own conflict: one that handles it goes on, the others keep their rows", async () => {
      const org = (await newTenant(repos)).organization.id;
      const taken = await repos.contacts.insert(newContact(org));
      const statements = recordStatements(/^(insert into [`"]contacts[`"]|savepoint|rollback)/i);
      const created = await Promise.all([
        uow.runGrouped(org, (tx) => tx.contacts.insert(newContact(org))),
        uow.runGrouped(org, async (tx) => {
          expect(await rejectionOf(tx.contacts.insert(newContact(org, { externalClientId: taken.externalClientId })))).to.be.instanceOf(ConflictError);
          return tx.contacts.insert(newContact(org));
        }),
        uow.runGrouped(org, (tx) => tx.contacts.insert(newContact(org))),
      ]);
      statements.stop();
      // The group committed once: no savepoint, no rollback. MySQL and SQLite send the refused
      // INSERT's rows again one by one; PostgreSQL's INSERT skipped the taken key's row.
      expect(statements.statements.filter((sql) => !/^insert/i.test(sql))).to.deep.equal([]);
      expect(statements.statements).to.have.length(kind === 'postgres' ? 2 : 5);
      for (const contact of created) expect((await repos.contacts.findByExternalClientId(org, contact.externalClientId))?.id).to.equal(contact.id);
      expect((await repos.contacts.list(org, {}, { page: 1, limit: 10 })).total).to.equal(4);
      await checkTallies(db);
    });

    it('gives the key two works of one group insert to one of them, and its conflict to the other', async () => {
      const org = (await newTenant(repos)).organization.id;
      const same = newContact(org);
      const outcomes = await Promise.allSettled([uow.runGrouped(org, (tx) => tx.contacts.insert(same)), uow.runGrouped(org, (tx) => tx.contacts.insert({ ...same }))]);
      const created = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
      const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
      expect(created).to.have.length(1);
      expect(refused).to.have.length(1);
      expect(refused[0]).to.be.instanceOf(ConflictError);
      expect((await repos.contacts.findByExternalClientId(org, same.externalClientId))?.id).to.equal(created[0]!.id);
      expect((await repos.contacts.list(org, {}, { page: 1, limit: 10 })).total).to.equal(1);
      await checkTallies(db);
    });

    it('in a shared transaction, refuses every statement after a failure that may have ended it, and rolls back instead of committing', async () => {
      const org = (await newTenant(repos)).organization.id;
      const lost = newContact(org);
      const error = await rejectionOf(
        db.transaction(async (trx) => {
          shareTransaction(trx);
          await knexRepositories(trx, { events: testEventWriting(), secrets: testSecretBox() }).contacts.insert(lost);
          expect(await rejectionOf(trx.raw('select * from no_such_table'))).not.to.be.instanceOf(SharedTransactionStopped);
          expect(await rejectionOf(trx.raw('select 1'))).to.be.instanceOf(SharedTransactionStopped);
          return 'the failure handled: Knex now sends COMMIT';
        }),
      );
      expect(error).to.be.instanceOf(SharedTransactionStopped);
      // Were the transaction left open, the next BEGIN on its connection would commit it.
      for (let i = 0; i < 4; i++) await uow.run((tx) => tx.contacts.insert(newContact(org)));
      expect(await repos.contacts.findByExternalClientId(org, lost.externalClientId)).to.equal(null);
      await checkTallies(db);
    });

    it(`in a shared transaction, ${kind === 'postgres' ? 'stops at' : 'goes on after'} a duplicate key that failed a statement (PostgreSQL ends a transaction at any failure, and a shared one takes no savepoints)`, async () => {
      const { organization, company } = await newTenant(repos);
      await repos.products.insert(newProduct(company, { name: 'Gym' }));
      const pool = await repos.products.insert(newProduct(company, { name: 'Pool' }));
      const kept = newContact(organization.id);
      const outcome = await db
        .transaction(async (trx) => {
          shareTransaction(trx);
          const tx = knexRepositories(trx, { events: testEventWriting(), secrets: testSecretBox() });
          // An UPDATE: no INSERT that skips taken keys can stand for it.
          expect(await rejectionOf(tx.products.rename(company.id, pool.id, 'Gym'))).to.be.instanceOf(ConflictError);
          await tx.contacts.insert(kept);
          return 'committed';
        })
        .catch((error: unknown) => error);
      const committed = await repos.contacts.findByExternalClientId(organization.id, kept.externalClientId);
      if (kind === 'postgres') {
        expect(outcome).to.be.instanceOf(SharedTransactionStopped);
        expect(committed).to.equal(null);
      } else {
        expect(outcome).to.equal('committed');
        expect(committed).not.to.equal(null);
      }
      await checkTallies(db);
    });

    if (kind === 'postgres') {
      it('refuses text holding U+0000 as the request\'s fault (InvalidRequestError), in and out of transactions, before PostgreSQL sees it', async () => {
        const t = await newTenant(repos);
        const nul = { ...newContact(t.organization.id), name: 'a\u0000b' };
        expect(await rejectionOf(repos.contacts.insert(nul))).to.be.instanceOf(InvalidRequestError);
        expect(await rejectionOf(repos.contacts.findByExternalClientId(t.organization.id, 'x\u0000'))).to.be.instanceOf(InvalidRequestError);
        expect(await rejectionOf(uow.run((tx) => tx.contacts.insert(nul)))).to.be.instanceOf(InvalidRequestError);
      });
    }

    if (kind !== 'sqlite') {
      it('lets both of two transactions that lock two rows in opposite orders commit', async () => {
        const t = await debtTenant();
        const [a, b] = [await repos.debts.insert(newDebt(t)), await repos.debts.insert(newDebt(t))];
        // Each holds its first row before either asks for its second: InnoDB (or PostgreSQL's
        // deadlock detector, after deadlock_timeout) must kill one.
        let holding = 0;
        let bothHolding!: () => void;
        const barrier = new Promise<void>((resolve) => (bothHolding = resolve));
        const runs = [0, 0];
        const lockBoth = (which: 0 | 1, first: string, second: string) =>
          uow.run(async (tx) => {
            runs[which]!++;
            await tx.debts.lockByExternalRequestId(t.company.id, first);
            if (runs[which] === 1) {
              if (++holding === 2) bothHolding();
              await barrier;
            }
            await tx.debts.lockByExternalRequestId(t.company.id, second);
            return which;
          });
        const outcomes = await Promise.all([lockBoth(0, a.externalRequestId, b.externalRequestId), lockBoth(1, b.externalRequestId, a.externalRequestId)]);
        expect(outcomes).to.deep.equal([0, 1]);
        expect(runs[0]! + runs[1]!, 'one of them ran twice').to.equal(3);
      });
    }
  });
}
