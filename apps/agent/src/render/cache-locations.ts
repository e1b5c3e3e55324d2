import type { edge } from '@edgekeep/contract';
import { block, lines } from './text';

type Policy = { seconds: number; mode: 'follow' | 'force' } | undefined;

const cachePolicy = (policy: Policy, zone: string) => {
  if (!policy) return `proxy_cache ${zone};`;
  if (policy.seconds === 0) return 'proxy_cache off;';
  return lines(
    `proxy_cache ${zone};`,
    `proxy_cache_valid 200 206 301 302 ${policy.seconds}s;`,
    policy.mode === 'force' && 'proxy_ignore_headers Cache-Control Expires X-Accel-Expires;',
  );
};

type Target = { proxyPass: string; zone: string };

const location = ({ match, policy, proxyPass, zone }: Target & { match: string; policy: Policy }) =>
  block({ head: `location ${match}`, body: lines(cachePolicy(policy, zone), `proxy_pass ${proxyPass};`) });

/**
 * The locations of one domain, caching in `zone`. URL rules of this host become prefix locations that win over file-type rules;
 * file-type rules are regex locations in rule order; everything else follows the origin's cache headers.
 */
export const cacheLocations = ({ domain, rules, proxyPass, zone }: Target & { domain: string; rules: edge.CacheRule[] }) => {
  const prefixes = new Map<string, Policy>();
  for (const rule of rules) {
    if (rule.type !== 'url') continue;
    for (const value of rule.values) {
      const url = new URL(value);
      if (url.hostname === domain && !prefixes.has(url.pathname)) prefixes.set(url.pathname, rule);
    }
  }
  const rootPolicy = prefixes.get('/');
  prefixes.delete('/');
  return lines(
    ...[...prefixes].map(([path, policy]) => location({ match: `^~ ${path}`, policy, proxyPass, zone })),
    ...rules.flatMap((rule) =>
      rule.type === 'fileTypes' ? [location({ match: `~* \\.(${rule.values.join('|')})$`, policy: rule, proxyPass, zone })] : [],
    ),
    location({ match: '/', policy: rootPolicy, proxyPass, zone }),
  );
};
