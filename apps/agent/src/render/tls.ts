import type { edge } from '@edgekeep/contract';

/** The release file the Lua runtime loads its certificates from at boot (readable by root only, like a key). */
export const SNI_FILE = 'certs/sni.json';
/** The fallback certificate of every HTTPS server, for names without one; the agent writes it into each release. */
export const DEFAULT_CERT = { chain: 'certs/default.crt', key: 'certs/default.key' };

/** A certificate as the Lua runtime holds it: the names (domains, maybe `*.` wildcards) it is served for. */
export type SniCertificate = { id: number; names: string[]; chain: string; key: string };

/** The certificates that domains use, each with the domain names it serves. */
export const sniCertificates = ({ state }: { state: edge.DesiredState }): SniCertificate[] => {
  const names = new Map<number, string[]>();
  for (const site of state.structure.sites) {
    for (const d of site.domains) {
      if (d.certificateId !== null) names.set(d.certificateId, [...(names.get(d.certificateId) ?? []), d.name]);
    }
  }
  return state.data.certificates
    .filter((c) => names.has(c.id))
    .map((c) => ({ id: c.id, names: names.get(c.id) ?? [], chain: c.chain, key: c.key }));
};

/** The TLS lines of an HTTPS server: the default certificate, replaced per handshake by the one for the SNI name. */
export const tlsDirectives = ({ dir }: { dir: string }) => [
  `ssl_certificate ${dir}/${DEFAULT_CERT.chain};`,
  `ssl_certificate_key ${dir}/${DEFAULT_CERT.key};`,
  'ssl_certificate_by_lua_block { require("edgekeep.certs").serve() }',
];
