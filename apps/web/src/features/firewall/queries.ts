import { useQuery } from '@tanstack/react-query';
import { blockedIpRoutes as b } from '@edgekeep/contract/routes/blocked-ips';
import { firewallRoutes } from '@edgekeep/contract/routes/firewall';
import { firewallRuleRoutes, type RuleKindRoutes } from '@edgekeep/contract/routes/firewall-rules';
import { siteRoutes } from '@edgekeep/contract/routes/sites';
import type { blockedIpItem, userBlockedIpsQuery } from '@edgekeep/contract/schemas/blocked-ips';
import type { ipRuleBody, ipRuleItem, ipRulesQuery, updateIpRuleBody } from '@edgekeep/contract/schemas/firewall';
import type { RuleKind, rulesQuery } from '@edgekeep/contract/schemas/firewall-rules';
import type { z } from 'zod';
import { callRoute } from '../../api/route-client';
import type { ListQuery } from '../../components/list-params';

export type IpRule = z.output<typeof ipRuleItem>;
export type IpRuleInput = z.input<typeof ipRuleBody>;
export type BlockedIp = z.output<typeof blockedIpItem>;
/** A rule of any kind besides the IP lists: its fields and id, enabled, createdAt. */
export type Rule = { id: number; enabled: boolean; createdAt: string } & Record<string, unknown>;
export type IpList = 'blacklist' | 'whitelist';
export type { RuleKind };
type Mode = 'user' | 'client';

export const firewallKeys = {
  settings: (siteId: number) => ['firewall-settings', siteId] as const,
  list: (siteId: number, list: IpList | RuleKind) => ['firewall', siteId, list] as const,
  blocked: (mode: Mode) => ['blockIPs', mode] as const,
  geoips: ['geoips'] as const,
  sites: (mode: Mode) => ['metaSites', mode] as const,
};

/** The site's black- and whitelist (spec §7 firewall/setting/blacklists, whitelists). */
export const ipLists = {
  list: (siteId: number, list: IpList, query: ListQuery) => callRoute(firewallRoutes[list].list, { params: { siteId }, query: query as z.input<typeof ipRulesQuery> }),
  add: (siteId: number, list: IpList, body: IpRuleInput) => callRoute(firewallRoutes[list].create, { params: { siteId }, body }),
  update: (siteId: number, list: IpList, body: z.input<typeof updateIpRuleBody>) => callRoute(firewallRoutes[list].update, { params: { siteId }, body }),
  enable: (siteId: number, list: IpList, body: { ids: number[]; enabled: boolean }) => callRoute(firewallRoutes[list].enable, { params: { siteId }, body }),
  remove: (siteId: number, list: IpList, ids: number[]) => callRoute(firewallRoutes[list].remove, { params: { siteId }, body: { ids } }),
};

/** The routes of a kind, its fields left open: each kind's form holds its schema's fields, and the API checks them. */
const kindRoutes = (kind: RuleKind): RuleKindRoutes => firewallRuleRoutes[kind];

/** The other lists of rules: regions, user agents, headers, rate limits, frequencies, abuse IP, layer 4. */
export const ruleLists = {
  list: async (siteId: number, kind: RuleKind, query: ListQuery) =>
    (await callRoute(kindRoutes(kind).list, { params: { siteId }, query: query as z.input<typeof rulesQuery> })) as { data: Rule[]; total: number },
  /** Adds a rule, or changes the one whose id is given. */
  save: (siteId: number, kind: RuleKind, body: Record<string, unknown>, id?: number) =>
    id ? callRoute(kindRoutes(kind).update, { params: { siteId }, body: { ...body, id } }) : callRoute(kindRoutes(kind).create, { params: { siteId }, body }),
  enable: (siteId: number, kind: RuleKind, body: { ids: number[]; enabled: boolean }) => callRoute(kindRoutes(kind).enable, { params: { siteId }, body }),
  remove: (siteId: number, kind: RuleKind, ids: number[]) => callRoute(kindRoutes(kind).remove, { params: { siteId }, body: { ids } }),
};

export const useFirewallSettings = (siteId: number) =>
  useQuery({ queryKey: firewallKeys.settings(siteId), queryFn: async () => (await callRoute(firewallRuleRoutes.settings, { params: { siteId } })).data });
export const setAdvance = (siteId: number, enabled: boolean) => callRoute(firewallRuleRoutes.advance, { params: { siteId }, body: { enabled } });
/** The countries a region rule can name; they do not change while the console runs. */
export const useGeoips = () =>
  useQuery({ queryKey: firewallKeys.geoips, queryFn: async () => (await callRoute(firewallRuleRoutes.geoips)).data, staleTime: Infinity });

/** Blocked addresses (spec §7 blockIPs): user mode across the user's sites, client mode across its users' sites. */
export const blocked = {
  list: (mode: Mode, query: ListQuery) =>
    callRoute(mode === 'user' ? b.userList : b.clientList, { query: query as z.input<typeof userBlockedIpsQuery> }),
  unblock: (mode: Mode, blocks: { siteID: number; ip: string }[]) => callRoute(mode === 'user' ? b.userRemove : b.clientRemove, { body: { blocks } }),
  /** Every address of one of the user's sites. */
  unblockSite: (siteId: number) => callRoute(b.removeAll, { params: { siteId } }),
  /** Client mode: every site of the client's users, or one site or zone of them. */
  unblockClient: (filter: { siteID?: number; zoneID?: number }) => callRoute(b.clientRemoveAll, { body: filter }),
};

/** The sites a block list can be narrowed to: the user's own, or those of the client's users. */
export const useBlockListSites = (mode: Mode) =>
  useQuery({ queryKey: firewallKeys.sites(mode), queryFn: async () => (await callRoute(mode === 'user' ? siteRoutes.userMetaSites : siteRoutes.metaSites)).data });
