import { z } from 'zod';
import { TEXT_FIELD_MAX } from '../constants';
import { pageQuery } from '../paging';
import { id } from './account';
import { ids } from './accounts';

/** Longest announcement body, in characters. */
export const ANNOUNCEMENT_CONTENT_MAX = 10_000;

/** An ISO-8601 time with its zone, kept as UTC `toISOString`. */
const time = z.iso.datetime({ offset: true }).transform((s) => new Date(s).toISOString());
const title = z.string().trim().min(1).max(TEXT_FIELD_MAX);
const content = z.string().trim().max(ANNOUNCEMENT_CONTENT_MAX);
const endAfterStart = (b: { startTime?: string; endTime?: string }) => !b.startTime || !b.endTime || b.endTime > b.startTime;
const endAfterStartIssue = { path: ['endTime'], message: 'endTime must be after startTime' };

/** Spec §3 announcement: shown to the client's users while now is inside [startTime, endTime]. */
export const announcementItem = z.object({
  id: z.number(),
  title: z.string(),
  content: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const createAnnouncementBody = z.object({ title, content: content.default(''), startTime: time, endTime: time }).refine(endAfterStart, endAfterStartIssue);
export const updateAnnouncementBody = z
  .object({ id, title: title.optional(), content: content.optional(), startTime: time.optional(), endTime: time.optional() })
  .refine(endAfterStart, endAfterStartIssue);
export const removeAnnouncementsBody = z.object({ ids });
export const announcementsQuery = pageQuery.extend({ title: z.string().max(TEXT_FIELD_MAX).optional() });
export const userAnnouncementsQuery = pageQuery;

export type Announcement = z.infer<typeof announcementItem>;
