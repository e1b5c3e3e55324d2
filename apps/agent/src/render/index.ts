import type { edge } from '@edgekeep/contract';
import type { GeoOptions } from './geo';
import { renderHttpSite } from './http-site';
import { splitLive } from './live';
import { luaData } from './lua-data';
import { renderNginxConf } from './nginx-conf';
import { renderStreamSite } from './stream';
import { SNI_FILE, sniCertificates } from './tls';

export { ACCESS_LOG } from './nginx-conf';
export { STREAM_LOG } from './stream-firewall';
export { luaData, type LuaData } from './lua-data';
export { renderedReasons, splitLive, type LiveDomain } from './live';
export { liveOriginNames, withOriginAddresses } from './live-origins';
export { siteCacheDirectories, siteCachePaths } from './site-cache';
export { DEFAULT_CERT, SNI_FILE, sniCertificates, type SniCertificate } from './tls';
export type { CityDb, GeoOptions } from './geo';

/** Paths relative to the release directory, and their contents. */
export type RenderedFiles = Record<string, string>;

/**
 * Desired state → the files of one release directory. Pure: `dir` is where the files will live (nginx needs
 * absolute paths for Lua, certificates and error pages); logs and cache stay relative to the nginx prefix.
 */
export type RenderOptions = {
  state: edge.DesiredState;
  dir: string;
  release: string;
  controlPort: number;
  /** nginx has the Lua and stream modules built in (OpenResty): no load_module lines. */
  builtinModules?: boolean;
  /** The country database (and, in tests only, the address it looks up); without it $ek_country is empty. */
  geo?: GeoOptions;
};

/**
 * nginx gets the zone's fixed servers and the domains that need a server block of their own (render/live.ts); the
 * live domains, like every other piece of data, go to the Lua runtime in data.json.
 */
export const render = ({ state, dir, release, controlPort, builtinModules, geo }: RenderOptions) => {
  const nginx = { ...state, structure: splitLive({ state }).structure };
  const files: RenderedFiles = { 'nginx.conf': renderNginxConf({ state: nginx, whole: state, dir, release, controlPort, builtinModules, geo }) };
  for (const site of nginx.structure.sites) {
    const http = renderHttpSite({ site, zone: state.structure.zone, dir });
    if (site.domains.length) files[`sites/site-${site.id}.conf`] = http.conf;
    Object.assign(files, http.files);
    if (site.l4Ports.length) files[`stream/site-${site.id}.conf`] = renderStreamSite({ site });
  }
  files[SNI_FILE] = JSON.stringify(sniCertificates({ state })) + '\n';
  files['data.json'] = JSON.stringify(luaData({ state })) + '\n';
  return files;
};
