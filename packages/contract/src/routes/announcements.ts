import * as s from '../schemas/announcements';
import { done, envelope, paged } from '../paging';
import { defineRoute } from '../route';

const tag = 'Announcements';

export const announcementRoutes = {
  list: defineRoute({ id: 'client.setting.announcements', method: 'GET', path: 'client/setting/announcements', tier: 'client', permission: 'announcements.edit', tag,
    summary: "The client's announcements (title filter; sortBy startTime, endTime, createdAt, title)", query: s.announcementsQuery, response: paged(s.announcementItem) }),
  remove: defineRoute({ id: 'client.setting.announcements.remove', method: 'DELETE', path: 'client/setting/announcements', tier: 'client', permission: 'announcements.edit', tag,
    summary: 'Remove announcements', body: s.removeAnnouncementsBody, response: done }),
  create: defineRoute({ id: 'client.setting.announcement.create', method: 'POST', path: 'client/setting/announcement', tier: 'client', permission: 'announcements.edit', tag,
    summary: "Write an announcement for the client's users (title, content, startTime, endTime)", body: s.createAnnouncementBody, response: envelope(s.announcementItem) }),
  update: defineRoute({ id: 'client.setting.announcement.update', method: 'PUT', path: 'client/setting/announcement', tier: 'client', permission: 'announcements.edit', tag,
    summary: 'Change an announcement', body: s.updateAnnouncementBody, response: envelope(s.announcementItem) }),
  user: defineRoute({ id: 'user.announcements', method: 'GET', path: 'user/announcements', tier: 'user', permission: 'dashboard.view', tag,
    summary: "The user's client's announcements showing now (inside their start and end time), newest first", query: s.userAnnouncementsQuery, response: paged(s.announcementItem) }),
} as const;
