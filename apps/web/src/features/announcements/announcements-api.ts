import type { announcementSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { call, callList } from '../../api/client';
import type { Query } from '../../api/url';

export type Announcement = z.infer<typeof announcementSchemas.announcementItem>;
export type AnnouncementBody = z.input<typeof announcementSchemas.createAnnouncementBody>;
export type AnnouncementUpdate = z.input<typeof announcementSchemas.updateAnnouncementBody>;

/** Spec §7 announcements: the client writes them, its users read those showing now. */
export const announcementsApi = {
  list: (query: Query) => callList<Announcement>('client/setting/announcements', { tier: 'client', query }),
  create: (body: AnnouncementBody) => call<Announcement>('client/setting/announcement', { tier: 'client', method: 'POST', body }),
  update: (body: AnnouncementUpdate) => call<Announcement>('client/setting/announcement', { tier: 'client', method: 'PUT', body }),
  remove: (ids: number[]) => call<unknown>('client/setting/announcements', { tier: 'client', method: 'DELETE', body: { ids } }),
  current: (query: Query) => callList<Announcement>('user/announcements', { tier: 'user', query, delayMs: 0 }),
};
