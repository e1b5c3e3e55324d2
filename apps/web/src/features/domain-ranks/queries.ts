import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { domainRankRoutes as r } from '@edgekeep/contract/routes/domain-ranks';
import type { domainRankItem } from '@edgekeep/contract/schemas/domain-ranks';
import type { z } from 'zod';
import { callRoute } from '../../api/route-client';

export type DomainRank = z.output<typeof domainRankItem>;
export type RankSort = { sortBy: 'traffic' | 'reqCount'; orderBy: 'asc' | 'desc' };

export const domainRankKeys = {
  page: (page: number, pageSize: number, sort: RankSort) => ['domainRanks', page, pageSize, sort] as const,
};

/** A page of the user's domains ranked this month, kept on screen while the next one loads, refreshed every minute. */
export const useDomainRanks = (page: number, pageSize: number, sort: RankSort) =>
  useQuery({
    queryKey: domainRankKeys.page(page, pageSize, sort),
    queryFn: () => callRoute(r.user, { query: { page, pageSize, ...sort } }),
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });
