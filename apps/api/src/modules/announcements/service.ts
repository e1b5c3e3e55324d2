import { Codes, type announcementSchemas } from '@edgekeep/contract';
import type { Selectable } from 'kysely';
import type { z } from 'zod';
import type { Database } from '../../db/schema';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { announcementsRepo } from './repo';

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

export async function listAnnouncements(deps: AppDeps, principal: Principal, query: ListQuery) {
  const page = await announcementsRepo(deps, principal).page(query);
  return { data: page.data.map(toItem), total: page.total };
}

/** What the user's dashboard shows: its client's announcements whose window holds now, newest first. */
export async function currentAnnouncements(deps: AppDeps, principal: Principal, query: { page: number; pageSize: number }) {
  const announcements = announcementsRepo(deps, principal);
  if ((await announcements.owner()) === null) return { data: [], total: 0 };
  const page = await announcements.current(query, new Date().toISOString());
  return { data: page.data.map(toItem), total: page.total };
}

export async function createAnnouncement(deps: AppDeps, principal: Principal, body: CreateBody) {
  const announcements = announcementsRepo(deps, principal);
  const id = await announcements.create({ title: body.title, content: body.content, start_time: body.startTime, end_time: body.endTime });
  return toItem(await announcements.get(id));
}

export async function updateAnnouncement(deps: AppDeps, principal: Principal, body: UpdateBody) {
  const announcements = announcementsRepo(deps, principal);
  const row = await announcements.get(body.id);
  const start = body.startTime ?? row.start_time;
  const end = body.endTime ?? row.end_time;
  if (end <= start) throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field: 'endTime', message: 'endTime must be after startTime' }] } });
  await announcements.update(row.id, {
    ...(body.title === undefined ? {} : { title: body.title }),
    ...(body.content === undefined ? {} : { content: body.content }),
    start_time: start,
    end_time: end,
  });
  return toItem(await announcements.get(row.id));
}

/** Removes all of them or, when one is not the caller's, none. */
export const removeAnnouncements = (deps: AppDeps, principal: Principal, ids: number[]) => announcementsRepo(deps, principal).remove(ids);
