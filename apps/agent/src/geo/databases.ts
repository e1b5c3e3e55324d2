import { access } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);

/** Country by address (ISO 3166-1 alpha-2 in `country_code`), the CC0 mmdb the agent package carries. */
export const GEO_COUNTRY_DB = require.resolve('@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb');

const hasModule = (modulesDir: string, name: string) => access(join(modulesDir, `${name}.so`)).then(() => true, () => false);

/**
 * The geo lookup of a node: the country database by client address where nginx has the geoip2 module (Debian's
 * libnginx-mod-http-geoip2, and libnginx-mod-stream-geoip2 for the L4 ports); none on builds without it
 * (OpenResty), whose $ek_country stays empty.
 */
export const defaultGeo = async ({ modulesDir, builtinModules }: { modulesDir: string; builtinModules?: boolean }) => {
  if (builtinModules) return undefined;
  if (!(await hasModule(modulesDir, 'ngx_http_geoip2_module'))) return undefined;
  return { countryDb: GEO_COUNTRY_DB, stream: await hasModule(modulesDir, 'ngx_stream_geoip2_module') };
};
