import type { Generated } from 'kysely';
import type { Flag } from './schema';

export type DnsTables = { dns_settings: DnsSettingTable; dns_rrsets: DnsRrsetTable; dns_cnames: DnsCnameTable };

export type DnsSettingTable = {
  client_id: number;
  type: string;
  api_url: string;
  server_id: string;
  /** The provider's API key, encrypted with the data key. */
  api_key_sealed: string;
  ttl: number;
  updated_at: string;
};

/** One record set as last wanted at the provider; synced 0: a change it has not taken yet (an unprocessed task). */
export type DnsRrsetTable = {
  id: Generated<number>;
  client_id: number;
  zone: string;
  name: string;
  type: string;
  /** JSON array of the record contents; empty: the set is to be deleted. */
  records: string;
  synced: Generated<Flag>;
  attempts: Generated<number>;
  last_error: string | null;
  updated_at: string;
};

export type DnsCnameTable = {
  id: Generated<number>;
  client_id: number;
  domain: string;
  disabled: Generated<Flag>;
  memo: Generated<string>;
  created_at: string;
  updated_at: string;
};
