import type { edge, firewallRuleSchemas } from '@edgekeep/contract';
import type { EdgeFeature, SiteStructure } from '../../agent-gateway/edge-feature';
import type { Db } from '../../db';
import { limitsOfSites } from '../site-actions/edge-limits';
import { LIFT_KEEP_SECONDS } from './blocked-service';
import { advancedSites, enabledIpRulesOfSites, enabledL4RulesOfSites, enabledRulesOfSites, liftsOfSitesSince } from './repo';
import { readRuleBody } from './stored';

type RuleKind = firewallRuleSchemas.RuleKind;
type IpRow = { site_id: number; list: string; ip: string; url: string; methods: string; port: number };
type RuleRow = { id: number; site_id: number; kind: string; body: string };
type LiftRow = { site_id: number; ip: string | null; lifted_at: number };
type Body = Record<string, unknown>;

/** An IP list entry as the edge takes it: the bare address, or the address with its conditions. */
const ipEntry = (r: IpRow): edge.IpListEntry => {
  const methods = r.methods ? (r.methods.split(',') as (typeof edge.HTTP_METHODS)[number][]) : [];
  if (!r.url && !methods.length && !r.port) return r.ip;
  return { ip: r.ip, ...(r.url ? { url: r.url } : {}), ...(methods.length ? { methods } : {}), ...(r.port ? { port: r.port } : {}) };
};

const geo = (b: Body) => ({ countries: b.geoIDs, isBlack: b.isBlack, urlRegex: b.urlRegex, blockType: b.blockType });
const withId = (r: RuleRow, b: Body) => ({ id: r.id, ...b });

/** One site's firewall document for the edge: the enabled entries of every list, by the names the Lua steps read. */
function siteDocument(siteId: number, ips: IpRow[], rules: RuleRow[], lifts: LiftRow[], advance: boolean) {
  const of = (kind: RuleKind) => rules.filter((r) => r.kind === kind).map((r) => ({ row: r, body: readRuleBody(kind, r.body) }));
  const abuse = of('abuseIP').map((r) => Number(r.body.score));
  const doc = {
    siteId,
    blacklist: ips.filter((r) => r.list === 'blacklist').map(ipEntry),
    whitelist: ips.filter((r) => r.list === 'whitelist').map(ipEntry),
    geo: of('geo').map((r) => geo(r.body)),
    userAgents: of('userAgent').map((r) => r.body),
    antiHeaders: of('antiHeader').map((r) => r.body),
    limitReqs: of('limitReq').map((r) => withId(r.row, r.body)),
    frequencies: of('frequency').map((r) => withId(r.row, r.body)),
    ...(abuse.length ? { abuseIP: { score: Math.min(...abuse) } } : {}),
    ...(advance ? { advance } : {}),
    unblocks: lifts.map((l) => (l.ip ? { ip: l.ip, at: l.lifted_at } : { at: l.lifted_at })),
  };
  const kept = Object.entries(doc).filter(([k, v]) => !Array.isArray(v) || v.length || k === 'blacklist' || k === 'whitelist');
  const empty = kept.every(([k, v]) => k === 'siteId' || (Array.isArray(v) && !v.length));
  return { doc: Object.fromEntries(kept) as { siteId: number } & Body, empty };
}

/** Each served site's enabled firewall rules and recent block lifts, pushed into the edge's Lua without a reload; sites without any are left out. */
async function firewallDataOf(db: Db, sites: { id: number }[]) {
  if (!sites.length) return [];
  const siteIds = sites.map((s) => s.id);
  const [ips, rules, lifts, advancedIds] = await Promise.all([
    enabledIpRulesOfSites(db, siteIds),
    enabledRulesOfSites(db, siteIds),
    liftsOfSitesSince(db, siteIds, Math.floor(Date.now() / 1000) - LIFT_KEEP_SECONDS),
    advancedSites(db, siteIds),
  ]);
  const advanced = new Set(advancedIds);
  const of = <R extends { site_id: number }>(rows: R[], id: number) => rows.filter((r) => r.site_id === id);
  return sites
    .map((s) => siteDocument(s.id, of(ips, s.id), of(rules, s.id), of(lifts, s.id), advanced.has(s.id)))
    .filter((s) => !s.empty)
    .map((s) => s.doc);
}

/** The sites' layer-4 firewalls (enabled entries) and connection limitations, rendered into their stream servers. */
async function l4FirewallOf(db: Db, sites: SiteStructure[]) {
  if (!sites.length) return new Map<number, Pick<SiteStructure, 'l4Firewall'>>();
  const [rows, limits] = await Promise.all([enabledL4RulesOfSites(db, sites.map((s) => s.id)), limitsOfSites(db, sites.filter((s) => s.l4Ports?.length).map((s) => s.id))]);
  const of = (siteId: number, kind: RuleKind) => rows.filter((r) => r.site_id === siteId && r.kind === kind).map((r) => readRuleBody(kind, r.body));
  const ipRule = ({ ip, port }: Body) => ({ ip, port });
  const position = ({ geoIDs, isBlack, port }: Body) => ({ countries: geoIDs, isBlack, port });
  return new Map(
    sites.map((s) => [
      s.id,
      {
        l4Firewall: {
          blacklist: of(s.id, 'l4Blacklist').map(ipRule),
          whitelist: of(s.id, 'l4Whitelist').map(ipRule),
          positions: of(s.id, 'l4Position').map(position),
          limitConns: of(s.id, 'l4LimitConn'),
          connections: limits.get(s.id)?.connections,
        },
      } as Pick<SiteStructure, 'l4Firewall'>,
    ]),
  );
}

/** The firewall: each site's layer-4 firewall in its structure (after its layer-4 ports), its rules and lifts in its data. */
export const firewallEdge: EdgeFeature = {
  name: 'firewall',
  sites: ({ deps }, sites) => l4FirewallOf(deps.db, sites),
  siteData: async ({ deps }, sites) => new Map((await firewallDataOf(deps.db, sites)).map(({ siteId, ...doc }) => [siteId, doc])),
};
