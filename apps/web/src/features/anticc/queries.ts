import { useQuery } from '@tanstack/react-query';
import { anticcRoutes as r } from '@edgekeep/contract/routes/waf-acl';
import type { anticcInput, anticcItem, anticcsQuery } from '@edgekeep/contract/schemas/waf-acl';
import type { z } from 'zod';
import { callRoute } from '../../api/route-client';
import type { ListQuery } from '../../components/list-params';

export type AnticcRule = z.output<typeof anticcItem>;
export type AnticcInput = z.input<typeof anticcInput>;

export const anticcKeys = {
  list: (siteId: number) => ['anticcs', siteId] as const,
  freqs: (siteId: number) => ['anticc-freqs', siteId] as const,
};
/** Spec §4 protection modes. */
export const MODES = { 1: 'shield', 2: 'code', 3: 'click', 4: 'redirect', 5: 'slider' } as const;

/** The anti-CC calls of spec §7 (firewall/setting/anticc, anticcs, anticc/freqs). */
export const anticc = {
  list: (siteId: number, query: ListQuery) => callRoute(r.list, { params: { siteId }, query: query as z.input<typeof anticcsQuery> }),
  /** Adds a rule, or changes the one whose id is given. */
  save: (siteId: number, body: AnticcInput, id?: number): Promise<unknown> =>
    id ? callRoute(r.update, { params: { siteId }, body: { ...body, id } }) : callRoute(r.create, { params: { siteId }, body }),
  enable: (siteId: number, body: { ids: number[]; enabled: boolean }) => callRoute(r.enable, { params: { siteId }, body }),
  remove: (siteId: number, ids: number[]) => callRoute(r.remove, { params: { siteId }, body: { ids } }),
};

/** The thresholds the site's rules use most, and the defaults of a new rule. */
export const useAnticcFreqs = (siteId: number) => useQuery({ queryKey: anticcKeys.freqs(siteId), queryFn: async () => (await callRoute(r.freqs, { params: { siteId } })).data });
