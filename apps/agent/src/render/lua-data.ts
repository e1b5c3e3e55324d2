import { createHash } from 'node:crypto';
import type { edge } from '@edgekeep/contract';
import { splitLive, type LiveDomain } from './live';

/**
 * What the Lua runtime holds in its shared dictionary: the same document at load time and through the control
 * endpoint. `served`: every site the node serves, those without rules of their own included.
 */
export type LuaData = {
  revision: number;
  sites: edge.SiteData[];
  domains?: edge.DomainModules[];
  zone?: edge.ZoneData;
  served?: number[];
  acme?: edge.AcmeChallenge[];
  pages?: Record<string, edge.ErrorPage>;
  live?: LiveDomain[];
  liveDelta?: { base: string; set: LiveDomain[]; remove: string[] };
  liveDigest?: string;
};
// `acme`: the HTTP-01 answers of running orders; left out when there are none (the runtime then holds none).
// `live`: the domains served from data (render/live.ts); `liveDigest` names that list, so that the runtime rewrites
// its per-name entries only when it changed, not at every push of lists or rules; `liveDelta` (sync/live-push.ts)
// changes the list of digest `base` into the one of `liveDigest`, in place of `live`.
// `pages`: each site's 929 page of the error settings, by site id; the runtime answers its own where a site has none.

const LUA_PAGE = 929;

const digest = (live: LiveDomain[]) => createHash('sha256').update(JSON.stringify(live)).digest('base64url');

export const luaData = ({ state }: { state: edge.DesiredState }): LuaData => {
  const { live } = splitLive({ state });
  return {
    revision: state.revision,
    sites: state.data.sites,
    domains: state.data.domainModules,
    zone: state.data.zone,
    served: state.structure.sites.map((s) => s.id),
    ...(state.data.acmeChallenges.length ? { acme: state.data.acmeChallenges } : {}),
    pages: Object.fromEntries(state.structure.sites.flatMap((s) => s.errorPages.filter((p) => p.status === LUA_PAGE).map((p) => [String(s.id), p]))),
    live,
    liveDigest: digest(live),
  };
};
