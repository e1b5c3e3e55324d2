import crypto from 'node:crypto';
import { getDomain } from 'tldts';
import { now } from '../../db';
import type { AppDeps } from '../../deps';
import { resolverOf } from './cname-check';
import { disableDomains, enabledDomainsNamed, enabledNamesOfOthersUnder } from './repo';

const CHUNK = 100;

/** A name's registered domain (its public suffix and one label more, private suffixes included); the name itself where it has none. */
export function registeredDomain(name: string) {
  const bare = name.toLowerCase().replace(/^\*\./, '');
  return getDomain(bare, { allowPrivateDomains: true }) ?? bare;
}

export const challengeRecord = (domain: string) => `_edgekeep-challenge.${domain}`;

/** The tenant's token for a registered domain: stable, and nobody without the platform's key can make another tenant's. */
export function ownershipToken(deps: AppDeps, o: { ownerId: number; domain: string }) {
  const mac = crypto.createHmac('sha256', deps.secrets.dataKey).update(`domain-ownership\n${o.ownerId}\n${o.domain}`).digest('base64url');
  return `edgekeep-${mac.slice(0, 32)}`;
}

/** Whether the registered domain's challenge record carries the tenant's token; an unanswered lookup proves nothing. */
export async function proofSeen(deps: AppDeps, o: { ownerId: number; domain: string }) {
  try {
    const records = await resolverOf(deps).resolveTxt(challengeRecord(o.domain));
    return records.some((chunks) => chunks.join('') === ownershipToken(deps, o));
  } catch {
    return false;
  }
}

/** Enabled names of other tenants (owning users of sites) under these registered domains, with their sites' zones. */
async function othersUnder(deps: AppDeps, o: { ownerId: number; domains: string[] }) {
  const wanted = new Set(o.domains);
  const rows = [];
  for (let i = 0; i < o.domains.length; i += CHUNK) {
    const chunk = o.domains.slice(i, i + CHUNK);
    rows.push(...(await enabledNamesOfOthersUnder(deps.db, o.ownerId, chunk)));
  }
  return rows.filter((r) => wanted.has(registeredDomain(r.name)));
}

export type NameCheck = { refused: string[]; challenges: { domain: string; record: string }[]; proven: string[] };

/**
 * Which of `names` lie under a registered domain where another tenant serves an enabled name (a wildcard or any
 * other name there could take that tenant's traffic; a disabled name holds nothing) and are refused (401001). A
 * registered domain whose challenge record carries this tenant's token is `proven` instead: once the change is
 * otherwise accepted, `takeOver` hands it over.
 */
export async function checkClaims(deps: AppDeps, o: { ownerId: number; names: string[] }): Promise<NameCheck> {
  const held = new Set((await othersUnder(deps, { ownerId: o.ownerId, domains: [...new Set(o.names.map(registeredDomain))] })).map((r) => registeredDomain(r.name)));
  const proven: string[] = [];
  for (const domain of held) if (await proofSeen(deps, { ownerId: o.ownerId, domain })) proven.push(domain);
  const unproven = [...held].filter((d) => !proven.includes(d));
  return {
    refused: o.names.filter((n) => unproven.includes(registeredDomain(n))),
    challenges: unproven.map((domain) => ({ domain, record: challengeRecord(domain) })),
    proven,
  };
}

/** As checkClaims, and a name enabled on another site (but `exceptIds`) is refused too, unless a proof hands it over. */
export async function checkNames(deps: AppDeps, o: { ownerId: number; names: string[]; exceptIds?: number[] }): Promise<NameCheck> {
  if (!o.names.length) return { refused: [], challenges: [], proven: [] };
  const claims = await checkClaims(deps, o);
  const taken = (await enabledDomainsNamed(deps.db, o.names, o.exceptIds)).filter((r) => r.user_id === o.ownerId || !claims.proven.includes(registeredDomain(r.name))).map((r) => r.name);
  return { ...claims, refused: [...new Set([...taken, ...claims.refused])] };
}

/**
 * The tenant proved these registered domains: every other tenant's name under them is disabled, and their zones'
 * revisions move so the edges stop routing those names to the old tenant's origins.
 */
export async function takeOver(deps: AppDeps, o: { ownerId: number; domains: string[] }) {
  if (!o.domains.length) return;
  const rows = await othersUnder(deps, o);
  if (!rows.length) return;
  const at = now();
  for (let i = 0; i < rows.length; i += CHUNK) {
    const ids = rows.slice(i, i + CHUNK).map((r) => r.id);
    await disableDomains(deps.db, ids, at);
  }
  await deps.revisions.bump(deps.db, [...new Set(rows.map((r) => r.zone_id))]);
}

/** What the caller publishes to prove a name's registered domain, and whether it is seen now. */
export async function ownershipOf(deps: AppDeps, o: { ownerId: number; name: string }) {
  const domain = registeredDomain(o.name);
  return {
    registeredDomain: domain,
    record: challengeRecord(domain),
    token: ownershipToken(deps, { ownerId: o.ownerId, domain }),
    heldByOthers: (await othersUnder(deps, { ownerId: o.ownerId, domains: [domain] })).length > 0,
    proven: await proofSeen(deps, { ownerId: o.ownerId, domain }),
  };
}
