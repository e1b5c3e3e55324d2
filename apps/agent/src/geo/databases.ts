import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** Country by address (ISO 3166-1 alpha-2 in `country_code`), the CC0 mmdb the agent package carries. */
export const GEO_COUNTRY_DB = require.resolve('@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb');
