import type { edge } from '@edgekeep/contract';
import { block, lines } from './text';

/** How a cache rule caches: `seconds` of validity (0: not cached), the origin's headers winning (follow) or ignored (force). */
export type CachePolicy = Pick<edge.CacheRule, 'seconds' | 'mode'>;

/** A policy's directives, caching in `zone`; none: the origin's cache headers alone decide. */
export const cachePolicy = (policy: CachePolicy | undefined, zone: string) => {
  if (!policy) return `proxy_cache ${zone};`;
  if (policy.seconds === 0) return 'proxy_cache off;';
  return lines(
    `proxy_cache ${zone};`,
    `proxy_cache_valid 200 206 301 302 ${policy.seconds}s;`,
    policy.mode === 'force' && 'proxy_ignore_headers Cache-Control Expires X-Accel-Expires;',
  );
};

/** A policy's name, one per distinct set of directives (seconds 0 is off whatever the mode): the live locations' suffix. */
export const policyName = ({ seconds, mode }: CachePolicy) => (seconds === 0 ? 'off' : `${seconds}${mode === 'force' ? '_force' : ''}`);

/** The paths of this host's URL rules with their policies; the first rule naming a path wins, as the first location would. */
const hostPrefixes = ({ domain, rules }: { domain: string; rules: edge.CacheRule[] }) => {
  const prefixes = new Map<string, CachePolicy>();
  for (const rule of rules) {
    if (rule.type !== 'url') continue;
    for (const value of rule.values) {
      const url = new URL(value);
      if (url.hostname === domain && !prefixes.has(url.pathname)) prefixes.set(url.pathname, rule);
    }
  }
  const root = prefixes.get('/');
  prefixes.delete('/');
  return { prefixes, root };
};

type Target = { proxyPass: string; zone: string };

const location = ({ match, policy, proxyPass, zone }: Target & { match: string; policy: CachePolicy | undefined }) =>
  block({ head: `location ${match}`, body: lines(cachePolicy(policy, zone), `proxy_pass ${proxyPass};`) });

/**
 * The locations of one domain, caching in `zone`. URL rules of this host become prefix locations that win over file-type rules;
 * file-type rules are regex locations in rule order; everything else follows the origin's cache headers.
 */
export const cacheLocations = ({ domain, rules, proxyPass, zone }: Target & { domain: string; rules: edge.CacheRule[] }) => {
  const { prefixes, root } = hostPrefixes({ domain, rules });
  return lines(
    ...[...prefixes].map(([path, policy]) => location({ match: `^~ ${path}`, policy, proxyPass, zone })),
    ...rules.flatMap((rule) =>
      rule.type === 'fileTypes' ? [location({ match: `~* \\.(${rule.values.join('|')})$`, policy: rule, proxyPass, zone })] : [],
    ),
    location({ match: '/', policy: root, proxyPass, zone }),
  );
};

/**
 * The same choice as data for the Lua runtime (edgekeep/live.lua), by policy name: the host's prefixes longest first
 * (nginx's `^~` takes the longest, and then looks no further), the file-type rules in order (regex locations), and
 * the policy of the host's `/`, which only applies when neither matched. null: every answer follows the origin.
 */
export const liveCacheRules = ({ domain, rules }: { domain: string; rules: edge.CacheRule[] }) => {
  const { prefixes, root } = hostPrefixes({ domain, rules });
  const fileTypes = rules.flatMap((r) => (r.type === 'fileTypes' ? [{ extensions: r.values, policy: policyName(r) }] : []));
  if (prefixes.size === 0 && fileTypes.length === 0 && !root) return null;
  return {
    prefixes: [...prefixes].sort(([a], [b]) => b.length - a.length).map(([path, policy]) => ({ path, policy: policyName(policy) })),
    fileTypes,
    root: root ? policyName(root) : null,
  };
};
