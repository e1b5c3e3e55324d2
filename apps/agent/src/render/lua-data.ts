import { createHash } from 'node:crypto';
import { jsonOf, perObject, type edge } from '@edgekeep/contract';
import { nginxStatus } from './http-site';
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
  errorPages?: Record<string, Record<string, Omit<edge.ErrorPage, 'status'>>>;
  live?: LiveDomain[];
  liveDelta?: { base: string; set: LiveDomain[]; remove: string[] };
  liveDigest?: string;
};
// `acme`: the HTTP-01 answers of running orders; left out when there are none (the runtime then holds none).
// `live`: the domains served from data (render/live.ts); `liveDigest` names that list, so that the runtime rewrites
// its per-name entries only when it changed, not at every push of lists or rules; `liveDelta` (sync/live-push.ts)
// changes the list of digest `base` into the one of `liveDigest`, in place of `live`.
// `pages`: each site's 929 page of the error settings, by site id; the runtime answers its own where a site has none.
// `errorPages`: the pages of statuses 300–599 of the sites with live domains, by site id and status
// (edgekeep/error_pages.lua); a server block of its own has them as nginx's error_page.

const LUA_PAGE = 929;
/** The pages of a site with live domains, by status, of the statuses nginx's error_page takes; none: []. */
const livePages = (site: edge.SiteStructure, live: LiveDomain[]) => {
  const pages = live.length ? site.errorPages.filter((p) => nginxStatus(p.status)) : [];
  return pages.length ? [[String(site.id), Object.fromEntries(pages.map((p) => [String(p.status), { type: p.type, body: p.body }]))] as const] : [];
};

/** Each live domain's JSON and its hash, worked out once per entry: an entry kept from state to state is the same object (render/live.ts). */
const entryOf = perObject((d: LiveDomain) => {
  const json = jsonOf(d);
  return { json, hash: createHash('sha256').update(json).digest('base64url') };
});
export const liveJson = (d: LiveDomain) => entryOf(d).json;

const hashOf = (parts: string[]) => createHash('sha256').update(parts.join(',')).digest('base64url');
/** A site's live domains named by their entries' hashes, once per list (render/live.ts keeps a site's list while the site stays). */
const siteDigest = perObject((live: LiveDomain[]) => hashOf(live.map((d) => entryOf(d).hash)));
/** Names the list by its sites' lists, in order: the same lists, the same name. */
const digest = (lives: LiveDomain[][]) => hashOf(lives.filter((live) => live.length > 0).map(siteDigest));

export const luaData = ({ state }: { state: edge.DesiredState }): LuaData => {
  const { live, lives } = splitLive({ state });
  const sites = state.structure.sites;
  return {
    revision: state.revision,
    sites: state.data.sites,
    domains: state.data.domainModules,
    zone: state.data.zone,
    served: state.structure.sites.map((s) => s.id),
    ...(state.data.acmeChallenges.length ? { acme: state.data.acmeChallenges } : {}),
    pages: Object.fromEntries(sites.flatMap((s) => s.errorPages.filter((p) => p.status === LUA_PAGE).map((p) => [String(s.id), p]))),
    errorPages: Object.fromEntries(sites.flatMap((s, i) => livePages(s, lives[i]))),
    live,
    liveDigest: digest(lives),
  };
};
