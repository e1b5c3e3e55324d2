import { randomUUID } from 'node:crypto';
import { CERT_BUDGET } from '@edgekeep/contract';
import type { AppDeps } from '../../deps';
import { encrypt } from '../../lib/crypto';
import { parseCertificate } from '../certificates/pem';
import { sitesServing } from '../certificates/repo';
import type { TxtPublisher } from '../dns/provider';
import { hintOf, WILDCARD_NEEDS_DNS } from './hints';
import { acmeClient, issueCertificate, newAccountKey, type HttpPublisher } from './issue';
import { notifyOnChange } from '../notifications/events';
import * as repo from './repo';
import { renewAtOf } from './renewal';
import { endpointOf, rememberAccount } from './settings';
import { sitesChanged } from '../sites/service';

/** Hold on a name while its order runs; a dead instance's claim lapses after it. */
export const CLAIM_MS = 10 * 60_000;
/** Orders one run works on at once. */
const PARALLEL = 8;
/** Retry delays after the 1st, 2nd, ... failure; the last one repeats. */
const BACKOFF_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000, 24 * 3_600_000];
/** How long an HTTP-01 answer may take to reach the zone's nodes before the CA is asked anyway. */
const PUBLISH_WAIT_MS = 30_000;
const ERROR_MAX = 1000;

const holder = `${process.pid}-${randomUUID()}`;
const iso = (ms: number) => new Date(ms).toISOString();
const backoff = (attempts: number) => BACKOFF_MS[Math.min(attempts, BACKOFF_MS.length) - 1] ?? BACKOFF_MS[0];

export type QueueOptions = {
  /** A client's DNS provider for DNS-01 (wildcards, and names whose HTTP path fails); null: it configured none. */
  dnsOf: (clientId: number) => Promise<TxtPublisher | null>;
};

/** Registering one client's account happens once even when several of its orders start together. */
const registering = new Map<number, Promise<unknown>>();

async function clientFor(deps: AppDeps, clientId: number) {
  await registering.get(clientId);
  const found = await endpointOf(deps, clientId);
  if (found.accountKey && found.accountUrl) return (await acmeClient({ endpoint: found.endpoint, accountKey: found.accountKey, accountUrl: found.accountUrl })).client;
  const work = (async () => {
    const key = await newAccountKey();
    const made = await acmeClient({ endpoint: found.endpoint, accountKey: key, accountUrl: null });
    await rememberAccount(deps, { clientId, stored: found.stored, key, url: made.accountUrl, directory: found.endpoint.directoryUrl });
    return made.client;
  })();
  registering.set(clientId, work.catch(() => undefined));
  try {
    return await work;
  } finally {
    registering.delete(clientId);
  }
}

/** Wait until every enabled node of the zone applied a revision (or the wait runs out: the CA then tells). */
async function nodesCaughtUp(deps: AppDeps, zoneId: number, revision: number) {
  const until = Date.now() + PUBLISH_WAIT_MS;
  while (Date.now() < until) {
    if (!(await repo.nodesBehind(deps.db, { zoneId, revision })).length) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** HTTP-01 answers go into the zone's desired state; the order waits for the nodes to serve them. */
function edgePublisher(deps: AppDeps, row: repo.AutoCertRow, zoneId: number): HttpPublisher {
  let published = false;
  return {
    async publish(c) {
      await repo.addChallenge(deps.db, { zoneId, autoCertificateId: row.id, ...c });
      published = true;
      const revision = await deps.revisions.bump(deps.db, [zoneId]);
      await nodesCaughtUp(deps, zoneId, revision);
    },
    async clear() {
      if (!published) return;
      await repo.removeChallenges(deps.db, row.id);
      await deps.revisions.bump(deps.db, [zoneId]);
    },
  };
}

async function fail(deps: AppDeps, row: repo.AutoCertRow, o: { error: string; hint: string; retryAt?: number; challenge?: 'http-01' | 'dns-01' }) {
  const attempts = row.attempts + 1;
  await repo.settle(deps.db, {
    id: row.id,
    holder,
    changes: {
      status: 'failed',
      attempts,
      last_error: o.error.slice(0, ERROR_MAX),
      hint: o.hint,
      next_attempt_at: iso(o.retryAt ?? Date.now() + backoff(attempts)),
      ...(o.challenge ? { challenge: o.challenge } : {}),
    },
  });
  // The client hears of it once per failing spell (not on every retry), and again after a success.
  await notifyOnChange(
    deps,
    { subject: `autocert:${row.id}`, state: 'failed' },
    { kind: 'certificate.failed', accountId: row.client_id, subject: row.name, details: { error: o.error.slice(0, 300) } },
  );
}

/** One order for one queued name; failures keep the last good certificate bound and serving. */
async function work(deps: AppDeps, row: repo.AutoCertRow, opts: QueueOptions) {
  const dns = await opts.dnsOf(row.client_id);
  if (row.name.startsWith('*.') && !dns) return fail(deps, row, { error: WILDCARD_NEEDS_DNS, hint: 'wildcardDns' });
  const used = (await repo.budgetUsed(deps.db, [row.registered_domain])).get(row.registered_domain) ?? 0;
  if (used >= CERT_BUDGET) {
    const error = `${used} certificates were issued for ${row.registered_domain} in the last 7 days (the limit is ${CERT_BUDGET})`;
    return fail(deps, row, { error, hint: 'budget', retryAt: await repo.budgetFreesAt(deps.db, row.registered_domain) });
  }
  const site = await repo.zoneOfSite(deps.db, row.site_id);
  if (!site) return;
  await repo.markProcessing(deps.db, row.id);
  try {
    const client = await clientFor(deps, row.client_id);
    const issued = await issueCertificate({ client, name: row.name, challenge: row.challenge, http: edgePublisher(deps, row, site.zone_id), dns });
    const parsed = parseCertificate(issued.chain, issued.key);
    const certificateId = await repo.storeIssued(deps.db, { row, siteId: row.site_id, chain: parsed.chain, keySealed: encrypt(deps.secrets.dataKey, issued.key), parsed });
    // the order's site (its domain moved onto the certificate) and every site whose domains serve it
    await sitesChanged(deps, [{ id: row.site_id, zoneID: site.zone_id }, ...(await sitesServing(deps.db, certificateId))]);
    await repo.recordIssuance(deps.db, { clientId: row.client_id, registeredDomain: row.registered_domain, name: row.name });
    const renewAt = await renewAtOf({ chain: parsed.chain, notBefore: parsed.notBefore, notAfter: parsed.notAfter, directoryUrl: (await endpointOf(deps, row.client_id)).endpoint.directoryUrl });
    await repo.settle(deps.db, {
      id: row.id,
      holder,
      changes: { status: 'completed', certificate_id: certificateId, not_after: parsed.notAfter, renew_at: renewAt, next_attempt_at: renewAt, attempts: 0, last_error: null, hint: null },
    });
    await notifyOnChange(deps, { subject: `autocert:${row.id}`, state: 'completed' }, null);
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    const hint = hintOf(error);
    deps.log.warn({ name: row.name, err: error }, 'automatic certificate order failed');
    // A name the CA could not reach over HTTP is tried through DNS next, where a DNS provider is configured.
    const challenge = row.challenge === 'http-01' && dns && hint !== 'budget' && hint !== 'ca' ? 'dns-01' : undefined;
    await fail(deps, row, { error, hint, challenge });
  }
}

/** One pass of the queue: new auto-SSL domains queued, then the due orders and renewals worked on. Answers how many. */
export async function runQueue(deps: AppDeps, opts: QueueOptions) {
  await repo.syncQueue(deps.db);
  let done = 0;
  for (;;) {
    const rows = await repo.claimDue(deps.db, { holder, limit: PARALLEL, untilMs: Date.now() + CLAIM_MS });
    if (!rows.length) return done;
    await Promise.all(rows.map((row) => work(deps, row, opts).catch((err) => deps.log.error({ err, name: row.name }, 'automatic certificate work failed'))));
    done += rows.length;
  }
}
