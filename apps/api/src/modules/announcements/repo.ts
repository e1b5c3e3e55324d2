import type { PageQuery } from '@edgekeep/contract';
import type { Updateable } from 'kysely';
import { now } from '../../db';
import { paginate, type Sorting } from '../../db/paging';
import type { Database } from '../../db/schema';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { notFound } from '../../http/errors';
import { findAccount } from '../accounts/repo';
import { tenantRootId } from '../roles/service';

/** Announcements belong to the client tenant: a sub-client writes its root client's. */
async function ownerClientId(deps: AppDeps, accountId: number) {
  const actor = await findAccount(deps.db, accountId);
  if (!actor) throw notFound('account');
  if (actor.auth === 'client') return (await tenantRootId(deps, actor)) ?? actor.id;
  // A user (or sub-user) reads the announcements of the client tenant it belongs to.
  const client = actor.client_id === null ? undefined : await findAccount(deps.db, actor.client_id);
  return client ? ((await tenantRootId(deps, client)) ?? client.id) : null;
}

/**
 * The announcements of the caller's client tenant (none for a user outside one). Another tenant's announcement
 * answers 101003/404 ("announcement not found") as if it did not exist, and no change reaches it.
 */
export function announcementsRepo(deps: AppDeps, principal: Principal) {
  const db = deps.db;
  let tenant: Promise<number | null> | undefined;
  const owner = () => (tenant ??= ownerClientId(deps, principal.accountId));
  // A caller without a tenant matches no row (client_id = null).
  const own = async () => db.selectFrom('announcements').selectAll().where('client_id', '=', (await owner())!);
  const page = async (q: Awaited<ReturnType<typeof own>>, query: PageQuery, sorting: Sorting) => paginate(q, { page: query, ...sorting });
  return {
    owner,

    async get(id: number) {
      const row = (await owner()) === null ? undefined : await (await own()).where('id', '=', id).executeTakeFirst();
      if (!row) throw notFound('announcement');
      return row;
    },

    page: async (query: PageQuery & { title?: string }) =>
      page(query.title ? (await own()).where('title', 'like', `%${query.title}%`) : await own(), query, {
        sortable: { title: 'title', startTime: 'start_time', endTime: 'end_time', createdAt: 'created_at' },
        defaultSort: { column: 'start_time', order: 'desc' },
      }),

    /** Those whose window holds `at`, newest first. */
    current: async (query: { page: number; pageSize: number }, at: string) =>
      page((await own()).where('start_time', '<=', at).where('end_time', '>=', at), { ...query, sortBy: undefined, orderBy: undefined }, {
        sortable: {},
        defaultSort: { column: 'start_time', order: 'desc' },
      }),

    async create(values: { title: string; content: string; start_time: string; end_time: string }) {
      const at = now();
      const row = await db
        .insertInto('announcements')
        .values({ ...values, client_id: (await owner())!, created_by: principal.accountId, created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    update: async (id: number, values: Updateable<Database['announcements']>) =>
      db.updateTable('announcements').set({ ...values, updated_at: now() }).where('client_id', '=', (await owner())!).where('id', '=', id).execute(),

    /** Removes all of them or, when one is not the caller's, none. */
    async remove(ids: number[]) {
      const found = await (await own()).where('id', 'in', ids).execute();
      if (found.length !== new Set(ids).size) throw notFound('announcement');
      await db.deleteFrom('announcements').where('client_id', '=', (await owner())!).where('id', 'in', ids).execute();
    },
  };
}
