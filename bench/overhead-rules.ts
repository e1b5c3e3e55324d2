import type { edge } from '@edgekeep/contract';

/**
 * What the edge under test enforces on every request. Each kind adds its rules to the bench site's desired state;
 * a new kind of rule (WAF rules, rate limits, …) is one more entry of RULE_KINDS.
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

export const blacklist = (count: number): RuleKind => ({
  name: `${count} blacklist entries`,
  add: ({ state, siteId }) => ({
    ...state,
    data: {
      ...state.data,
      sites: [...(state.data?.sites ?? []).filter((s) => s.siteId !== siteId), { siteId, blacklist: blacklistEntries(count) }],
    },
  }),
});

export const RULE_KINDS: RuleKind[] = [blacklist(5000)];
