import { Migrator, type Kysely, type Migration } from 'kysely';
import type { DbHandle } from './index';
import type { MigrationStep } from './migrations/helpers';
import { noticeWrites } from './write-notices';
import { migration as m0001 } from './migrations/20261121-0001-accounts-and-sessions';
import { migration as m0002 } from './migrations/20261121-0002-roles-and-audit';
import { migration as m0003 } from './migrations/20261121-0003-zones-and-nodes';
import { migration as m0004 } from './migrations/20261121-0004-groups-products-sites';
import { migration as m0005 } from './migrations/20261121-0005-domains';
import { migration as m0006 } from './migrations/20261121-0006-certificates-cache-error-pages';
import { migration as m0007 } from './migrations/20261121-0007-firewall-ip-lists';
import { migration as m0300 } from './migrations/20261121-0300-domain-settings-l4-ports';
import { migration as m0520 } from './migrations/20261121-0520-site-modules';
import { migration as m0500 } from './migrations/20261121-0500-firewall-rules';
import { migration as m0100 } from './migrations/20261121-0100-licenses';
import { migration as m0200 } from './migrations/20261121-0200-traffic';
import { migration as m0310 } from './migrations/20261121-0310-site-options';
import { migration as m0311 } from './migrations/20261121-0311-site-users';
import { migration as m0400 } from './migrations/20261121-0400-site-actions';
import { migration as m0401 } from './migrations/20261121-0401-virtual-nodes';
import { migration as m0402 } from './migrations/20261121-0402-monitors';
import { migration as m0510 } from './migrations/20261121-0510-waf-acl-anticc';
import { migration as m0403 } from './migrations/20261121-0403-monitor-groups';
import { migration as m0600 } from './migrations/20261121-0600-announcements';
import { migration as m0710 } from './migrations/20261121-0710-node-extras';
import { migration as m2_0100 } from './migrations/20261122-0100-zone-resource';
import { migration as m3_0100 } from './migrations/20261123-0100-log-exports';
import { migration as m3_0200 } from './migrations/20261123-0200-known-addresses';
import { migration as m5_0300 } from './migrations/20261125-0300-dashboards';
import { migration as m5_0400 } from './migrations/20261125-0400-job-leases';
import { migration as m6_0100 } from './migrations/20261126-0100-dns-provider';
import { migration as m6_0200 } from './migrations/20261126-0200-notifications';
import { migration as m6_0401 } from './migrations/20261126-0401-db-backup-node-upgrades';
import { migration as m6_0300 } from './migrations/20261126-0300-client-settings';
import { migration as m6_0500 } from './migrations/20261126-0500-auto-certificates';
import { migration as m7_0100 } from './migrations/20261127-0100-revision-times';
import { migration as m7_0200 } from './migrations/20261127-0200-domains-by-site-and-age';
import { migration as m7_0300 } from './migrations/20261127-0300-site-domain-counts';
import { migration as m7_0400 } from './migrations/20261127-0400-domains-auto-ssl';
import { migration as m8_0100 } from './migrations/20261128-0100-site-domain-versions';
import { migration as m9_0100 } from './migrations/20261129-0100-site-edge-revisions';
import { migration as m10_0100 } from './migrations/20261130-0100-site-edge-revisions-apart';
import { migration as m10_0200 } from './migrations/20261130-0200-zone-revisions-apart';

/** Every migration in order; names are timestamped and never change once landed. */
const MIGRATIONS: Record<string, MigrationStep> = {
  '20261121-0001-accounts-and-sessions': m0001,
  '20261121-0002-roles-and-audit': m0002,
  '20261121-0003-zones-and-nodes': m0003,
  '20261121-0004-groups-products-sites': m0004,
  '20261121-0005-domains': m0005,
  '20261121-0006-certificates-cache-error-pages': m0006,
  '20261121-0007-firewall-ip-lists': m0007,
  '20261121-0100-licenses': m0100,
  '20261121-0200-traffic': m0200,
  '20261121-0300-domain-settings-l4-ports': m0300,
  '20261121-0310-site-options': m0310,
  '20261121-0311-site-users': m0311,
  '20261121-0400-site-actions': m0400,
  '20261121-0401-virtual-nodes': m0401,
  '20261121-0402-monitors': m0402,
  '20261121-0520-site-modules': m0520,
  '20261121-0510-waf-acl-anticc': m0510,
  '20261121-0403-monitor-groups': m0403,
  '20261121-0500-firewall-rules': m0500,
  '20261121-0600-announcements': m0600,
  '20261121-0710-node-extras': m0710,
  '20261122-0100-zone-resource': m2_0100,
  '20261123-0100-log-exports': m3_0100,
  '20261123-0200-known-addresses': m3_0200,
  '20261125-0300-dashboards': m5_0300,
  '20261125-0400-job-leases': m5_0400,
  '20261126-0100-dns-provider': m6_0100,
  '20261126-0200-notifications': m6_0200,
  '20261126-0401-db-backup-node-upgrades': m6_0401,
  '20261126-0300-client-settings': m6_0300,
  '20261126-0500-auto-certificates': m6_0500,
  '20261127-0100-revision-times': m7_0100,
  '20261127-0200-domains-by-site-and-age': m7_0200,
  '20261127-0300-site-domain-counts': m7_0300,
  '20261127-0400-domains-auto-ssl': m7_0400,
  '20261128-0100-site-domain-versions': m8_0100,
  '20261129-0100-site-edge-revisions': m9_0100,
  '20261130-0100-site-edge-revisions-apart': m10_0100,
  '20261130-0200-zone-revisions-apart': m10_0200,
};

function migrator({ db, dialect }: DbHandle) {
  const migrations = Object.fromEntries(
    Object.entries(MIGRATIONS).map(([name, m]): [string, Migration] => [
      name,
      { up: (k: Kysely<unknown>) => m.up(k, dialect), down: (k: Kysely<unknown>) => m.down(k, dialect) },
    ]),
  );
  return new Migrator({ db, provider: { getMigrations: async () => migrations } });
}

export async function migrateToLatest(handle: DbHandle) {
  const { error, results } = await migrator(handle).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  if (handle.dialect === 'postgres') await noticeWrites(handle.db as unknown as Kysely<unknown>);
  return results?.filter((r) => r.status === 'Success').map((r) => r.migrationName) ?? [];
}

export async function migrateDownAll(handle: DbHandle) {
  const m = migrator(handle);
  for (;;) {
    const { error, results } = await m.migrateDown();
    if (error) throw error instanceof Error ? error : new Error(String(error));
    if (!results?.length) return;
  }
}
