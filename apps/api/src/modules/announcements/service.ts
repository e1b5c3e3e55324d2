import { Codes, type announcementSchemas } from '@edgekeep/contract';
import type { Selectable } from 'kysely';
import type { z } from 'zod';
import { now } from '../../db';
import { paginate } from '../../db/paging';
import type { Database } from '../../db/schema';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { findAccount } from '../accounts/repo';
import { tenantRootId } from '../roles/service';

type Row = Selectable<Database['announcements']>;
type ListQuery = z.infer<typeof announcementSchemas.announcementsQuery>;
type CreateBody = z.infer<typeof announcementSchemas.createAnnouncementBody>;
type UpdateBody = z.infer<typeof announcementSchemas.updateAnnouncementBody>;

const toItem = (r: Row): z.infer<typeof announcementSchemas.announcementItem> => ({
  id: r.id,
  title: r.title,
  content: r.content,
  startTime: r.start_time,
  endTime: r.end_time,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** Announcements belong to the client tenant: a sub-client writes its root client's. */
async function ownerClientId(deps: AppDeps, accountId: number) {
  const actor = await findAccount(deps.db, accountId);
  if (!actor) throw notFound('account');
  if (actor.auth === 'client') return (await tenantRootId(deps, actor)) ?? actor.id;
  // A user (or sub-user) reads the announcements of the client tenant it belongs to.
  const client = actor.client_id === null ? undefined : await findAccount(deps.db, actor.client_id);
  return client ? ((await tenantRootId(deps, client)) ?? client.id) : null;
}

const ownedBy = (deps: AppDeps, clientId: number) => deps.db.selectFrom('announcements').selectAll().where('client_id', '=', clientId);

async function ownAnnouncement(deps: AppDeps, principal: Principal, id: number) {
  const clientId = await ownerClientId(deps, principal.accountId);
  const row = clientId === null ? undefined : await ownedBy(deps, clientId).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('announcement');
  return row;
}

export async function listAnnouncements(deps: AppDeps, principal: Principal, query: ListQuery) {
  const clientId = (await ownerClientId(deps, principal.accountId))!;
  let q = ownedBy(deps, clientId);
  if (query.title) q = q.where('title', 'like', `%${query.title}%`);
  const page = await paginate(q, {
    page: query,
    sortable: { title: 'title', startTime: 'start_time', endTime: 'end_time', createdAt: 'created_at' },
    defaultSort: { column: 'start_time', order: 'desc' },
  });
  return { data: page.data.map(toItem), total: page.total };
}

/** What the user's dashboard shows: its client's announcements whose window holds now, newest first. */
export async function currentAnnouncements(deps: AppDeps, principal: Principal, query: { page: number; pageSize: number }) {
  const clientId = await ownerClientId(deps, principal.accountId);
  if (clientId === null) return { data: [], total: 0 };
  const at = new Date().toISOString();
  const q = ownedBy(deps, clientId).where('start_time', '<=', at).where('end_time', '>=', at);
  const page = await paginate(q, { page: { ...query, sortBy: undefined, orderBy: undefined }, sortable: {}, defaultSort: { column: 'start_time', order: 'desc' } });
  return { data: page.data.map(toItem), total: page.total };
}

export async function createAnnouncement(deps: AppDeps, principal: Principal, body: CreateBody) {
  const clientId = (await ownerClientId(deps, principal.accountId))!;
  const at = now();
  const row = await deps.db
    .insertInto('announcements')
    .values({ client_id: clientId, title: body.title, content: body.content, start_time: body.startTime, end_time: body.endTime, created_by: principal.accountId, created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return toItem(await ownAnnouncement(deps, principal, row.id));
}

export async function updateAnnouncement(deps: AppDeps, principal: Principal, body: UpdateBody) {
  const row = await ownAnnouncement(deps, principal, body.id);
  const start = body.startTime ?? row.start_time;
  const end = body.endTime ?? row.end_time;
  if (end <= start) throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field: 'endTime', message: 'endTime must be after startTime' }] } });
  await deps.db
    .updateTable('announcements')
    .set({
      ...(body.title === undefined ? {} : { title: body.title }),
      ...(body.content === undefined ? {} : { content: body.content }),
      start_time: start,
      end_time: end,
      updated_at: now(),
    })
    .where('id', '=', row.id)
    .execute();
  return toItem(await ownAnnouncement(deps, principal, row.id));
}

/** Removes all of them or, when one is not the caller's, none. */
export async function removeAnnouncements(deps: AppDeps, principal: Principal, ids: number[]) {
  const clientId = (await ownerClientId(deps, principal.accountId))!;
  const found = await ownedBy(deps, clientId).where('id', 'in', ids).execute();
  if (found.length !== new Set(ids).size) throw notFound('announcement');
  await deps.db.deleteFrom('announcements').where('client_id', '=', clientId).where('id', 'in', ids).execute();
}
