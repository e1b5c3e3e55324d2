import type { blockedIpSchemas, firewallRuleSchemas, firewallSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { call, callList } from '../../api/client';
import type { ListQuery } from '../../components/list-params';

export type IpRule = z.infer<typeof firewallSchemas.ipRuleItem>;
export type IpRuleInput = z.input<typeof firewallSchemas.ipRuleBody>;
export type BlockedIp = z.infer<typeof blockedIpSchemas.blockedIpItem>;
export type FirewallSettings = {
  advance: boolean;
  lists: Record<string, { total: number; enabled: number }>;
  blockedIPs: number;
};
/** A rule of any kind besides the IP lists: its fields and id, enabled, createdAt. */
export type Rule = { id: number; enabled: boolean; createdAt: string } & Record<string, unknown>;
export type IpList = 'blacklist' | 'whitelist';
export type RuleKind = firewallRuleSchemas.RuleKind;

const tier = 'user' as const;
const setting = (siteId: number, rest: string) => `user/site/${siteId}/firewall/${rest.startsWith('l4/') ? rest : `setting/${rest}`}`;
const send = <T>(method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) => call<T>(path, { method, tier, body });

/** The site firewall calls of spec §7 (firewall/setting/*, firewall/l4/*, firewall/settings, blockIPs). */
export const firewallApi = {
  ipList: (siteId: number, list: IpList, query: ListQuery) => callList<IpRule>(setting(siteId, `${list}s`), { tier, query }),
  addIps: (siteId: number, list: IpList, body: IpRuleInput) => send<IpRule[]>('POST', setting(siteId, `${list}s`), body),
  updateIp: (siteId: number, list: IpList, body: Partial<IpRuleInput> & { id: number; ip: string }) => send<IpRule>('PUT', setting(siteId, list), body),
  enableIps: (siteId: number, list: IpList, ids: number[], enabled: boolean) => send<unknown>('PUT', setting(siteId, `${list}s/enable`), { ids, enabled }),
  removeIps: (siteId: number, list: IpList, ids: number[]) => send<unknown>('DELETE', setting(siteId, `${list}s`), { ids }),
  rules: (siteId: number, plural: string, query: ListQuery) => callList<Rule>(setting(siteId, plural), { tier, query }),
  createRule: (siteId: number, plural: string, body: object) => send<Rule>('POST', setting(siteId, plural), body),
  updateRule: (siteId: number, singular: string, body: object) => send<Rule>('PUT', setting(siteId, singular), body),
  enableRules: (siteId: number, plural: string, ids: number[], enabled: boolean) => send<unknown>('PUT', setting(siteId, `${plural}/enable`), { ids, enabled }),
  removeRules: (siteId: number, plural: string, ids: number[]) => send<unknown>('DELETE', setting(siteId, plural), { ids }),
  settings: (siteId: number) => call<FirewallSettings>(`user/site/${siteId}/firewall/settings`, { tier }),
  advance: (siteId: number, enabled: boolean) => send<unknown>('PUT', setting(siteId, 'advance'), { enabled }),
  geoips: () => call<{ id: string; code: string }[]>('user/geoips', { tier }),
  blocked: (siteId: number, query: ListQuery) => callList<BlockedIp>(setting(siteId, 'blockIPs'), { tier, query }),
  allBlocked: (query: ListQuery, mode: 'user' | 'client') => callList<BlockedIp>(`${mode}/blockIPs`, { tier: mode, query }),
  unblock: (blocks: { siteID: number; ip: string }[], mode: 'user' | 'client') =>
    call<{ removed: number }>(`${mode}/blockIPs`, { method: 'DELETE', tier: mode, body: { blocks } }),
  unblockAll: (siteId: number) => send<{ removed: number }>('DELETE', setting(siteId, 'blockIPs/all')),
  /** Client mode: every site of the client's users, or one site or zone of them. */
  clientUnblockAll: (filter: { siteID?: number; zoneID?: number }) => call<{ removed: number }>('client/blockIPs/all', { method: 'DELETE', tier: 'client', body: filter }),
};

export const firewallKeys = {
  settings: (siteId: number) => ['firewall-settings', siteId],
  list: (siteId: number, name: string) => ['firewall', siteId, name],
  blocked: ['blockIPs'],
};
