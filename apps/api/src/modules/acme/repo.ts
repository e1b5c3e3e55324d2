import type { Selectable, SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/schema';
import { CERT_BUDGET_DAYS } from '@edgekeep/contract';
import { now, toCount, type Db } from '../../db';
import type { AcmeAccountTable, AutoCertificateTable } from '../../db/schema-acme';
import { registeredDomain } from '../domains/ownership';

export type AutoCertRow = Selectable<AutoCertificateTable>;
export type AccountRow = Selectable<AcmeAccountTable>;

const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Every domain with auto SSL on gets a queue row (pending, due now); a row whose domain turned auto SSL off goes.
 * The client is the product's owner, whose certificate provider issues.
 */
export async function syncQueue(db: Db) {
  const missing = await db
    .selectFrom('domains')
    .innerJoin('sites', 'sites.id', 'domains.site_id')
    .innerJoin('products', 'products.id', 'sites.product_id')
    .leftJoin('auto_certificates', 'auto_certificates.domain_id', 'domains.id')
    .select(['domains.id', 'domains.name', 'domains.site_id', 'products.client_id'])
    .where('domains.auto_ssl', '=', 1)
    .where('domains.status', '=', 1)
    .where('auto_certificates.id', 'is', null)
    .execute();
  const at = now();
  for (const d of missing) {
    await db
      .insertInto('auto_certificates')
      .values({
        domain_id: d.id,
        site_id: d.site_id,
        client_id: d.client_id,
        name: d.name,
        registered_domain: registeredDomain(d.name),
        status: 'pending',
        challenge: d.name.startsWith('*.') ? 'dns-01' : 'http-01',
        next_attempt_at: at,
        created_at: at,
        updated_at: at,
      })
      .onConflict((oc) => oc.column('domain_id').doNothing())
      .execute();
  }
  // read first: a deletion that deletes nothing is still a write, and would drop every kept answer that read the queue
  const gone = await db
    .selectFrom('auto_certificates')
    .innerJoin('domains', 'domains.id', 'auto_certificates.domain_id')
    .select('auto_certificates.id')
    .where('domains.auto_ssl', '=', 0)
    .execute();
  if (gone.length) await db.deleteFrom('auto_certificates').where('id', 'in', gone.map((r) => r.id)).execute();
  return missing.length;
}

/**
 * Claims up to `limit` due rows for this holder until `untilMs`: one order per name across API instances, since a
 * row is only taken where no live claim holds it (a dead instance's claim lapses).
 */
export async function claimDue(db: Db, o: { holder: string; limit: number; untilMs: number }) {
  const at = now();
  const due = await db
    .selectFrom('auto_certificates')
    .select('id')
    .where('next_attempt_at', '<=', at)
    .where((eb) => eb.or([eb('claim_until', 'is', null), eb('claim_until', '<=', at)]))
    // A disabled domain is not served, so the CA could not validate it: its order waits until it is enabled again.
    .where(({ exists, selectFrom }) =>
      exists(selectFrom('domains').select('domains.id').whereRef('domains.id', '=', 'auto_certificates.domain_id').where('domains.status', '=', 1)),
    )
    .orderBy('next_attempt_at')
    .limit(o.limit)
    .execute();
  const claimed: AutoCertRow[] = [];
  for (const { id } of due) {
    const r = await db
      .updateTable('auto_certificates')
      .set({ claimed_by: o.holder, claim_until: iso(o.untilMs) })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('claim_until', 'is', null), eb('claim_until', '<=', at)]))
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) continue;
    const row = await db.selectFrom('auto_certificates').selectAll().where('id', '=', id).executeTakeFirst();
    if (row) claimed.push(row);
  }
  return claimed;
}

/** Writes an outcome and lets the claim go; only the holder may. */
export async function settle(db: Db, o: { id: number; holder: string; changes: Partial<Omit<AutoCertRow, 'id'>> }) {
  await db
    .updateTable('auto_certificates')
    .set({ ...o.changes, claimed_by: null, claim_until: null, updated_at: now() })
    .where('id', '=', o.id)
    .where('claimed_by', '=', o.holder)
    .execute();
}

export const markProcessing = (db: Db, id: number) =>
  db.updateTable('auto_certificates').set({ status: 'processing', updated_at: now() }).where('id', '=', id).where('status', '!=', 'completed').execute();

/** Certificates issued per registered domain in the budget window. */
export async function budgetUsed(db: Db, domains: string[]) {
  if (!domains.length) return new Map<string, number>();
  const rows = await db
    .selectFrom('acme_issuances')
    .select((eb) => ['registered_domain', eb.fn.countAll().as('n')])
    .where('registered_domain', 'in', [...new Set(domains)])
    .where('issued_at', '>', iso(Date.now() - CERT_BUDGET_DAYS * DAY_MS))
    .groupBy('registered_domain')
    .execute();
  return new Map(rows.map((r) => [r.registered_domain, toCount(r.n as number)]));
}

export const recordIssuance = (db: Db, o: { clientId: number; registeredDomain: string; name: string }) =>
  db.insertInto('acme_issuances').values({ client_id: o.clientId, registered_domain: o.registeredDomain, name: o.name, issued_at: now() }).execute();

/** Where an HTTP-01 answer must be served: the zone of the domain's site, through its product. */
export async function zoneOfSite(db: Db, siteId: number) {
  const row = await db.selectFrom('sites').innerJoin('products', 'products.id', 'sites.product_id').select(['products.zone_id', 'sites.user_id']).where('sites.id', '=', siteId).executeTakeFirst();
  return row ?? null;
}

export const addChallenge = (db: Db, o: { zoneId: number; autoCertificateId: number; name: string; token: string; keyAuthorization: string }) =>
  db.insertInto('acme_challenges').values({ zone_id: o.zoneId, auto_certificate_id: o.autoCertificateId, name: o.name, token: o.token, key_authorization: o.keyAuthorization, created_at: now() }).execute();

export const removeChallenges = (db: Db, autoCertificateId: number) => db.deleteFrom('acme_challenges').where('auto_certificate_id', '=', autoCertificateId).execute();

/** The answers a zone's nodes serve. */
export const challengesOfZone = (db: Db, zoneId: number) =>
  db.selectFrom('acme_challenges').select(['name', 'token', 'key_authorization']).where('zone_id', '=', zoneId).orderBy('id').execute();

/** A node silent this long is offline: an order does not wait for it. */
const ONLINE_MS = 60_000;

/** Enabled, reporting nodes of a zone that are behind a revision. */
export async function nodesBehind(db: Db, o: { zoneId: number; revision: number }) {
  const rows = await db
    .selectFrom('nodes')
    .select(['id', 'applied_revision'])
    .where('zone_id', '=', o.zoneId)
    .where('enabled', '=', 1)
    .where('initialized_at', 'is not', null)
    .where('last_report_at', '>', iso(Date.now() - ONLINE_MS))
    .execute();
  return rows.filter((n) => (n.applied_revision ?? -1) < o.revision).map((n) => n.id);
}

export const accountOf = (db: Db, clientId: number) => db.selectFrom('acme_accounts').selectAll().where('client_id', '=', clientId).executeTakeFirst();

export async function saveAccount(db: Db, row: AccountRow) {
  await db
    .insertInto('acme_accounts')
    .values(row)
    .onConflict((oc) => oc.column('client_id').doUpdateSet({ ...row }))
    .execute();
}

export async function storeAccountKey(db: Db, o: { clientId: number; sealed: string; url: string | null; directory: string }) {
  await db.updateTable('acme_accounts').set({ account_key_sealed: o.sealed, account_url: o.url, account_directory: o.directory }).where('client_id', '=', o.clientId).execute();
}

/** The rows a client reaches, through the sites its principal reaches. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the sites query joins whatever tables the principal's scope needs
export function listQuery(db: Db, siteIds: number[] | SelectQueryBuilder<Database, any, { id: number }>) {
  return db
    .selectFrom('auto_certificates')
    .innerJoin('sites', 'sites.id', 'auto_certificates.site_id')
    .selectAll('auto_certificates')
    .select('sites.name as site_name')
    .where('auto_certificates.site_id', 'in', siteIds);
}

/** Queues a reapply: due now, from attempt zero; a row being worked on stays with its live holder. */
export async function requeue(db: Db, ids: number[]) {
  if (!ids.length) return 0;
  const at = now();
  const r = await db
    .updateTable('auto_certificates')
    .set({ next_attempt_at: at, attempts: 0, status: 'pending', updated_at: at })
    .where('id', 'in', ids)
    .where((eb) => eb.or([eb('claim_until', 'is', null), eb('claim_until', '<=', at)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export async function storeIssued(db: Db, o: { row: AutoCertRow; siteId: number; chain: string; keySealed: string; parsed: { subject: string; names: string[]; issuer: string; notBefore: string; notAfter: string } }) {
  const at = now();
  const values = {
    chain: o.chain,
    key_sealed: o.keySealed,
    subject: o.parsed.subject,
    names: JSON.stringify(o.parsed.names),
    issuer: o.parsed.issuer,
    not_before: o.parsed.notBefore,
    not_after: o.parsed.notAfter,
    updated_at: at,
  };
  return db.transaction().execute(async (trx) => {
    let certId = o.row.certificate_id;
    const existing = certId === null ? undefined : await trx.selectFrom('certificates').select('id').where('id', '=', certId).where('site_id', '=', o.siteId).executeTakeFirst();
    if (existing) {
      await trx.updateTable('certificates').set(values).where('id', '=', existing.id).execute();
    } else {
      const made = await trx
        .insertInto('certificates')
        .values({ ...values, site_id: o.siteId, name: `auto-${o.row.name}`.slice(0, 64), created_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      certId = made.id;
    }
    await trx.updateTable('domains').set({ certificate_id: certId, updated_at: at }).where('id', '=', o.row.domain_id).execute();
    return certId!;
  });
}

/** When the oldest issuance of the budget window leaves it. */
export async function budgetFreesAt(db: Db, domain: string) {
  const oldest = await db
    .selectFrom('acme_issuances')
    .select('issued_at')
    .where('registered_domain', '=', domain)
    .where('issued_at', '>', iso(Date.now() - CERT_BUDGET_DAYS * DAY_MS))
    .orderBy('issued_at')
    .limit(1)
    .executeTakeFirst();
  return oldest ? Date.parse(oldest.issued_at) + CERT_BUDGET_DAYS * DAY_MS : Date.now() + DAY_MS;
}
