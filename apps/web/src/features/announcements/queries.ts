import { useMutation, useQuery } from '@tanstack/react-query';
import { announcementRoutes as r } from '@edgekeep/contract/routes/announcements';
import type { announcementItem, announcementsQuery, createAnnouncementBody } from '@edgekeep/contract/schemas/announcements';
import type { z } from 'zod';
import { callRoute } from '../../api/route-client';
import { queryClient } from '../../app/query-client';
import type { ListQuery } from '../../components/list-params';

export type Announcement = z.output<typeof announcementItem>;
export type AnnouncementBody = z.input<typeof createAnnouncementBody>;

export const announcementKeys = {
  all: ['announcements'] as const,
  client: ['announcements', 'client'] as const,
  current: (page: number) => ['announcements', 'current', page] as const,
};

/** Spec §7 announcements: the client writes them, its users read those showing now. */
export const fetchAnnouncements = (query: ListQuery) => callRoute(r.list, { query: query as z.input<typeof announcementsQuery> });

const refresh = () => queryClient.invalidateQueries({ queryKey: announcementKeys.all });

/** Writes a new announcement, or changes the one whose id is given. */
export const useSaveAnnouncement = (id?: number) =>
  useMutation({
    mutationFn: (body: AnnouncementBody) => (id ? callRoute(r.update, { body: { id, ...body } }) : callRoute(r.create, { body })),
    onSuccess: refresh,
  });

export const useRemoveAnnouncements = () => useMutation({ mutationFn: (ids: number[]) => callRoute(r.remove, { body: { ids } }), onSuccess: refresh });

/** The announcements of the user's client showing now, a page at a time. */
export const useCurrentAnnouncements = (page: number, pageSize: number) =>
  useQuery({ queryKey: announcementKeys.current(page), queryFn: () => callRoute(r.user, { query: { page, pageSize }, delayMs: 0 }), refetchInterval: 300_000 });
