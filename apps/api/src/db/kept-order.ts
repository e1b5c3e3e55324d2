import type { PageQuery } from '@edgekeep/contract';
import type { SelectQueryBuilder } from 'kysely';
import { ordered, type Sorting } from './paging';

/** Ids held across one database's kept lists (8 bytes each); the least recently read lists are dropped past it. */
const IDS_KEPT = 2_000_000;

type Store = { lists: Map<string, { version: string; ids: number[] }>; reading: Map<string, Promise<number[]>>; held: number };
/** Per database handle, so that two apps in one process (tests, benchmarks) never share a list. */
const stores = new WeakMap<object, Store>();

function storeOf(db: object) {
  let store = stores.get(db);
  if (!store) stores.set(db, (store = { lists: new Map(), reading: new Map(), held: 0 }));
  return store;
}

function keep(store: Store, key: string, version: string, ids: number[]) {
  const before = store.lists.get(key);
  if (before) store.held -= before.ids.length;
  store.lists.delete(key);
  store.lists.set(key, { version, ids });
  store.held += ids.length;
  for (const [oldest, list] of store.lists) {
    if (store.held <= IDS_KEPT || oldest === key) break;
    store.lists.delete(oldest);
    store.held -= list.ids.length;
  }
}

/**
 * A page of a list (its ids in order, and its size) read from the ids of the whole list in that order, kept per list
 * (the query's SQL and parameters: the caller's scope, filters and sort) while `version` stays the same. `version`
 * must change with every change the list could show: the callers build it from the versions the database raises
 * on each change of the domains of the sites the list covers (and from which sites those are). Offset paging reads
 * every row it skips, 18,000 index entries and their sort for page 900 of a tenant's 100,000 domains; a kept list
 * is read once per change and any of its pages is a slice of it. Concurrent first reads share one query.
 */
export async function keptPage(
  db: object,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any table of any module, as paginate's
  query: SelectQueryBuilder<any, any, { id: number }>,
  opts: Sorting & { page: PageQuery; version: string },
): Promise<{ ids: number[]; total: number }> {
  const sorted = ordered(query, opts.page, opts);
  const compiled = sorted.compile();
  const key = `${compiled.sql}\n${JSON.stringify(compiled.parameters)}`;
  const store = storeOf(db);
  const known = store.lists.get(key);
  let ids: number[];
  if (known?.version === opts.version) {
    ids = known.ids;
  } else {
    const reading = `${opts.version}\n${key}`;
    let read = store.reading.get(reading);
    if (!read) {
      read = sorted.execute().then((rows) => rows.map((r) => r.id));
      store.reading.set(reading, read);
      read.then(
        () => store.reading.delete(reading),
        () => store.reading.delete(reading),
      );
    }
    ids = await read;
  }
  keep(store, key, opts.version, ids);
  const { page, pageSize } = opts.page;
  return { ids: ids.slice((page - 1) * pageSize, page * pageSize), total: ids.length };
}
