import { Codes } from '@edgekeep/contract';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../http/errors';
import { decrypt } from '../../lib/crypto';
import type { DnsSettingTable } from '../../db/schema-dns';
import { DnsProviderError, powerDns, type RrsetChange } from './powerdns';
import { findSetting } from './repo';

/**
 * The DNS provider of the system settings (client/setting/dns): the server that answers the platform's names. Site
 * CNAMEs answer the addresses of their group's healthy nodes from it, and ACME DNS-01 challenges are published
 * through it.
 */
export interface DnsProvider {
  /** Publishes exactly these TXT values at a name (an ACME challenge), replacing what was there. */
  setTxt(fqdn: string, values: string[]): Promise<void>;
  /** Removes the TXT records at a name. */
  clearTxt(fqdn: string): Promise<void>;
  /** Connects and answers the server's version; throws DnsProviderError when it cannot be used. */
  test(): Promise<{ version: string }>;
  /** Makes a zone unless the provider has it. */
  ensureZone(zone: string): Promise<void>;
  /** Replaces record sets of one zone in one change (a set without records is deleted). */
  apply(zone: string, changes: RrsetChange[]): Promise<void>;
}

/** What ACME DNS-01 needs of a provider: TXT records at a name. */
export type TxtPublisher = Pick<DnsProvider, 'setTxt' | 'clearTxt'>;

export type ProviderSettings = { type: string; apiUrl: string; apiKey: string; serverID: string; ttl: number };

export function providerOf(s: ProviderSettings): DnsProvider {
  const pdns = powerDns({ apiUrl: s.apiUrl, apiKey: s.apiKey, serverID: s.serverID });
  /** The provider's zone holding a name: the longest zone the name is in. */
  const zoneOf = async (fqdn: string) => {
    const name = fqdn.toLowerCase().replace(/\.$/, '');
    const zone = (await pdns.zones()).filter((z) => name === z || name.endsWith(`.${z}`)).sort((a, b) => b.length - a.length)[0];
    if (!zone) throw new DnsProviderError(`no zone at the DNS provider holds ${name}`);
    return { zone, name };
  };
  return {
    async setTxt(fqdn, values) {
      const { zone, name } = await zoneOf(fqdn);
      await pdns.patch(zone, [{ name, type: 'TXT', ttl: s.ttl, records: values.map((v) => `"${v.replace(/(["\\])/g, '\\$1')}"`) }]);
    },
    async clearTxt(fqdn) {
      const { zone, name } = await zoneOf(fqdn);
      await pdns.patch(zone, [{ name, type: 'TXT', ttl: s.ttl, records: [] }]);
    },
    test: () => pdns.info(),
    ensureZone: (zone) => pdns.ensureZone(zone),
    apply: (zone, changes) => pdns.patch(zone, changes),
  };
}

export const settingsOfRow = (deps: Pick<AppDeps, 'secrets'>, row: DnsSettingTable): ProviderSettings => ({
  type: row.type,
  apiUrl: row.api_url,
  apiKey: decrypt(deps.secrets.dataKey, row.api_key_sealed),
  serverID: row.server_id,
  ttl: row.ttl,
});

/**
 * A client's configured provider; null when it set no DNS type (then its wildcards cannot be validated). Its calls
 * fail with 101010 when the provider refuses.
 */
export async function dnsProvider(deps: AppDeps, { clientId }: { clientId: number }): Promise<DnsProvider | null> {
  const row = await findSetting(deps.db, clientId);
  if (!row) return null;
  const p = providerOf(settingsOfRow(deps, row));
  const wrap =
    <A extends unknown[], R>(f: (...a: A) => Promise<R>) =>
    async (...a: A) => {
      try {
        return await f(...a);
      } catch (err) {
        if (err instanceof DnsProviderError) throw new ApiError(Codes.DnsExecution, { extra: err.message });
        throw err;
      }
    };
  return { setTxt: wrap(p.setTxt), clearTxt: wrap(p.clearTxt), test: wrap(p.test), ensureZone: wrap(p.ensureZone), apply: wrap(p.apply) };
}
