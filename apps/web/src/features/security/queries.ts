import { useQuery } from '@tanstack/react-query';
import { securityRoutes } from '@edgekeep/contract/routes/security';
import { statisticsRoutes } from '@edgekeep/contract/routes/statistics';
import { SECURITY_DEFAULTS, type ReportGroup, type securityBody } from '@edgekeep/contract/schemas/security';
import type { z } from 'zod';
import { callRoute } from '../../api/route-client';
import { guessTimezone } from '../../lib/dates';
import type { AnalyticsTier } from '../statistics/queries';

export type SecurityFilter = Omit<z.input<ReturnType<typeof securityBody>>, 'types' | 'top'>;

/** The filter the security views open on (spec §9: six hours, 60-minute buckets). */
export const initialSecurityFilter = (): SecurityFilter => ({ ...SECURITY_DEFAULTS, timeZone: guessTimezone() });

const key = (tier: AnalyticsTier, group: ReportGroup | 'provinces', filter: SecurityFilter, types?: number[]) => ['security', tier, group, filter, types] as const;
export const securityKeys = { all: (tier: AnalyticsTier) => ['security', tier] as const };

/** The cards of the types asked for (default: all five of the security dashboard). */
export const useSecurityCards = (tier: AnalyticsTier, filter: SecurityFilter, types?: number[]) =>
  useQuery({ queryKey: key(tier, 'cards', filter, types), queryFn: () => callRoute(securityRoutes[tier].cards, { delayMs: 0, body: { ...filter, types } }) });

export const useSecurityTops = (tier: AnalyticsTier, filter: SecurityFilter, types?: number[]) =>
  useQuery({ queryKey: key(tier, 'tops', filter, types), queryFn: () => callRoute(securityRoutes[tier].tops, { delayMs: 0, body: { ...filter, types } }) });

export const useAreaTops = (tier: AnalyticsTier, filter: SecurityFilter, types: number[]) =>
  useQuery({ queryKey: key(tier, 'areaTops', filter, types), queryFn: () => callRoute(securityRoutes[tier].areaTops, { delayMs: 0, body: { ...filter, types } }) });

export const useBlacklistReport = (tier: AnalyticsTier, filter: SecurityFilter) =>
  useQuery({ queryKey: key(tier, 'blacklist', filter), queryFn: () => callRoute(securityRoutes[tier].blacklist, { delayMs: 0, body: filter }) });

export const useWafReport = (tier: AnalyticsTier, filter: SecurityFilter) =>
  useQuery({ queryKey: key(tier, 'waf', filter), queryFn: () => callRoute(securityRoutes[tier].waf, { delayMs: 0, body: filter }) });

/** Mainland China has 31 provinces: every one of them fits one top list. */
const PROVINCES_TOP = 40;

/** Requests and refusals by province of China over the filter's window (the China map). */
export const useChinaProvinces = (tier: AnalyticsTier, filter: SecurityFilter) =>
  useQuery({
    queryKey: key(tier, 'provinces', filter),
    queryFn: () => callRoute(statisticsRoutes[tier].top, { delayMs: 0, body: { ...filter, dimensions: ['province'], top: PROVINCES_TOP } }),
  });
