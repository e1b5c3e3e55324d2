import type { Kysely } from 'kysely';
import type { MigrationStep } from './helpers';

type Zones = { zones: { id: number; settings: string } };
type Settings = Record<string, unknown> & { nginxHttp?: Record<string, unknown>; resource?: Record<string, unknown> };

/** Rewrites every zone's settings JSON with `change`. */
async function rewrite(db: Kysely<unknown>, change: (s: Settings) => Settings | undefined) {
  const k = db as unknown as Kysely<Zones>;
  for (const zone of await k.selectFrom('zones').select(['id', 'settings']).execute()) {
    const next = change(JSON.parse(zone.settings) as Settings);
    if (next) await k.updateTable('zones').set({ settings: JSON.stringify(next) }).where('id', '=', zone.id).execute();
  }
}

/** A zone's cache size moves from its nginx http form to its cache resource (size in MB and time in minutes). */
export const migration: MigrationStep = {
  async up(db) {
    await rewrite(db, (s) => {
      if (s.nginxHttp?.cacheSize === undefined) return undefined;
      const { cacheSize, ...nginxHttp } = s.nginxHttp;
      return { ...s, nginxHttp, resource: { cacheTime: 10_080, ...s.resource, cacheSize } };
    });
  },
  async down(db) {
    await rewrite(db, (s) => {
      if (!s.resource) return undefined;
      const { resource, ...rest } = s;
      return { ...rest, nginxHttp: { ...s.nginxHttp, cacheSize: resource.cacheSize } };
    });
  },
};
