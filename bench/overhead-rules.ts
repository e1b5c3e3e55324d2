import type { edge } from '@edgekeep/contract';

/**
 * What the edge under test enforces on every request. Each kind adds its rules to the bench site's desired state;
 * a new kind of rule (WAF rules, rate limits, …) is one more entry of ruleKinds.
 */
export type RuleKind = { name: string; add: (o: { state: edge.DesiredStateInput; siteId: number }) => edge.DesiredStateInput };

/** Blacklist entries that never match the benchmark's client (127.0.0.1): addresses, CIDR blocks and ranges. */
const blacklistEntries = (count: number) =>
  Array.from({ length: count }, (_, i) => {
    const [a, b] = [(i >> 8) & 255, i & 255];
    if (i % 10 === 0) return `172.${16 + (a % 16)}.${b}.0/24`;
    if (i % 10 === 1) return `192.168.${b}.1-192.168.${b}.${(a % 200) + 10}`;
    return `10.${a}.${b}.${(i % 250) + 1}`;
  });

type SiteData = NonNullable<NonNullable<edge.DesiredStateInput['data']>['sites']>[number];

/** Adds fields to the site's entry of the pushed data, keeping what other kinds put there. */
const withSiteData = ({ state, siteId, fields }: { state: edge.DesiredStateInput; siteId: number; fields: Partial<SiteData> }) => {
  const sites = state.data?.sites ?? [];
  const current = sites.find((s) => s.siteId === siteId) ?? { siteId };
  return { ...state, data: { ...state.data, sites: [...sites.filter((s) => s.siteId !== siteId), { ...current, ...fields }] } };
};

export const blacklist = (count: number): RuleKind => ({
  name: `${count} blacklist entries`,
  add: ({ state, siteId }) => withSiteData({ state, siteId, fields: { blacklist: blacklistEntries(count) } }),
});

/**
 * Advanced WAF/ACL rules that every request is checked against and none matches: user agent, URI regex, query,
 * header, method and country conditions, in one module assigned to the benchmark's domain. Every rule has values of
 * its own, as a real rule list has.
 */
export const wafRules = (count: number, domain: string): RuleKind => ({
  name: `${count} WAF rules`,
  add: ({ state, siteId }) => {
    const condition = (i: number) =>
      [
        { field: 'userAgent', operator: 'contains', value: `sqlmap|nikto|masscan|scanner-${i}`, regex: true },
        { field: 'uri', operator: 'contains', value: `^/wp-(admin|login)-${i}`, regex: true },
        { field: 'query', operator: 'contains', value: `union select ${i}` },
        { field: 'header', name: `x-attack-${i}`, operator: 'eq', value: '1' },
        { field: 'method', operator: 'in', value: ['TRACE', 'CONNECT'] },
        { field: 'country', operator: 'in', value: ['KP', `X${String.fromCharCode(65 + (i % 26))}`] },
      ][i % 6];
    const rules = Array.from({ length: count }, (_, i) => ({ id: i + 1, conditions: [condition(i)], action: 'deny' as const }));
    return withSiteData({ state, siteId, fields: { waf: { acl: [{ domains: [domain], rules }] } } as Partial<SiteData> });
  },
});

export const ruleKinds = ({ domain }: { domain: string }): RuleKind[] => [blacklist(5000), wafRules(50, domain)];
