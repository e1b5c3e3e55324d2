import type { AppDeps } from '../../deps';
import { refreshStale } from '../resolutions/service';
import { providerOf, settingsOfRow, type DnsProvider } from './provider';
import type { RrsetChange } from './powerdns';
import * as repo from './repo';
import { DNS_SYNC_JOB, takeSyncRequest } from './sync-request';

/** How often every client's records are compared with the resolution and sent; also the longest a change waits. */
export const DNS_SYNC_MS = 5_000;

type Want = { zone: string; name: string; type: string; records: string[] };
const keyOf = (name: string, type: string) => `${name} ${type}`;
const fqdn = (v: string) => (v.endsWith('.') ? v : `${v}.`);

/** The zones a client's records go into: CNAME_DOMAIN and its enabled CNAME domains. */
export async function zonesOf(deps: AppDeps, clientId: number) {
  const list = (await repo.enabledCnames(deps.db, clientId)).map((c) => c.domain);
  return [...new Set([deps.config.cnameDomain.toLowerCase(), ...list])];
}

/**
 * What the provider must hold for a client: at each site CNAME the addresses (A, AAAA) its group answers now, or
 * the virtual node's CNAME target. Every resolver gets the same answers (see the README: lines and PowerDNS).
 */
async function wanted(deps: AppDeps, clientId: number) {
  await refreshStale(deps, await repo.zoneIdsOfClient(deps.db, clientId));
  const zones = await zonesOf(deps, clientId);
  const zoneOf = (name: string) => zones.filter((z) => name === z || name.endsWith(`.${z}`)).sort((a, b) => b.length - a.length)[0];
  const want = new Map<string, Want>();
  for (const r of await repo.resolutionsOfClient(deps.db, clientId)) {
    const zone = zoneOf(r.cname);
    if (!zone || r.cname === zone) continue;
    const cname = r.records.find((x) => x.type === 'CNAME');
    const sets: [string, string[]][] = cname
      ? [['CNAME', [fqdn(cname.value)]]]
      : (['A', 'AAAA'] as const).map((type) => [type, r.records.filter((x) => x.type === type).map((x) => x.value)]);
    for (const [type, values] of sets) {
      const records = [...new Set(values)].sort();
      if (records.length) want.set(keyOf(r.cname, type), { zone, name: r.cname, type, records });
    }
  }
  return want;
}

/** Notes the changes between what the provider was asked to hold and what it must hold now, as unprocessed tasks. */
async function diff(deps: AppDeps, clientId: number) {
  const want = await wanted(deps, clientId);
  const have = new Map((await repo.rrsetsOf(deps.db, clientId)).map((r) => [keyOf(r.name, r.type), r]));
  for (const [key, w] of want) {
    const h = have.get(key);
    if (!h || h.zone !== w.zone || h.records !== JSON.stringify(w.records)) await repo.wantRrset(deps.db, clientId, w);
  }
  for (const [key, h] of have) if (!want.has(key) && h.records !== '[]') await repo.wantRrset(deps.db, clientId, { zone: h.zone, name: h.name, type: h.type, records: [] });
}

/** Sends the unprocessed tasks, one change per zone; what the provider refuses stays with its error. */
async function process(deps: AppDeps, clientId: number, provider: DnsProvider, ttl: number) {
  const pending = await repo.pendingOf(deps.db, clientId);
  const byZone = new Map<string, typeof pending>();
  for (const r of pending) byZone.set(r.zone, [...(byZone.get(r.zone) ?? []), r]);
  let processed = 0;
  for (const [zone, rows] of byZone) {
    const changes: RrsetChange[] = rows.map((r) => ({ name: r.name, type: r.type, records: repo.parseRecords(r.records), ttl }));
    try {
      await provider.ensureZone(zone);
      await provider.apply(zone, changes);
      await repo.markTaken(deps.db, rows);
      processed += rows.length;
    } catch (err) {
      await repo.markFailed(deps.db, rows.map((r) => r.id), (err as Error).message);
    }
  }
  return { processed, remaining: await repo.pendingCount(deps.db, clientId) };
}

/** Brings one client's provider up to date: the changes noted, then sent. Nothing when the client set no provider. */
export async function syncClient(deps: AppDeps, clientId: number, opts: { rewriteAll?: boolean } = {}) {
  const row = await repo.findSetting(deps.db, clientId);
  if (!row) return { processed: 0, remaining: 0 };
  const settings = settingsOfRow(deps, row);
  const provider = providerOf(settings);
  if (opts.rewriteAll) {
    for (const zone of await zonesOf(deps, clientId)) await provider.ensureZone(zone);
    await repo.markAllPending(deps.db, clientId);
  }
  await diff(deps, clientId);
  return process(deps, clientId, provider, settings.ttl);
}

export async function syncAll(deps: AppDeps) {
  for (const clientId of await repo.configuredClients(deps.db)) {
    try {
      await syncClient(deps, clientId);
    } catch (err) {
      deps.log.warn({ clientId, err: (err as Error).message }, 'dns sync failed');
    }
  }
}

/** The periodic sync; a sync asked for while one runs makes it run once more. */
export function registerDnsSync(deps: AppDeps) {
  deps.scheduler.every({
    name: DNS_SYNC_JOB,
    everyMs: DNS_SYNC_MS,
    run: async () => {
      takeSyncRequest(deps.scheduler);
      do {
        await syncAll(deps);
      } while (takeSyncRequest(deps.scheduler));
    },
  });
}
