import { trafficSchemas } from '@edgekeep/contract';
import type { AppDeps } from '../../deps';
import { readTerms } from '../products/terms';
import { extraTrafficOf } from './repo';

const { BYTES_PER_GB, TRAFFIC_WARNING_PERCENT } = trafficSchemas;
type TrafficState = (typeof trafficSchemas.TRAFFIC_STATES)[number];
export type Month = { year: number; month: number };

/** The calendar month (UTC) a time is in. */
export const monthOf = (at = new Date()): Month => ({ year: at.getUTCFullYear(), month: at.getUTCMonth() + 1 });
export const previousMonth = ({ year, month }: Month): Month => (month === 1 ? { year: year - 1, month: 12 } : { year, month: month - 1 });
/** [from, to) of a calendar month, UTC. */
export const monthRange = ({ year, month }: Month) => ({ from: new Date(Date.UTC(year, month - 1, 1)), to: new Date(Date.UTC(year, month, 1)) });
export const isCurrentMonth = (m: Month) => {
  const now = monthOf();
  return now.year === m.year && now.month === m.month;
};

/** What a site's allowance is made of: its product's terms. */
export type SiteTerms = { siteId: number; productLimits: string };

export type SiteUsage = {
  bytesSent: number;
  bytesReceived: number;
  requests: number;
  productTrafficGB: number;
  extraTrafficGB: number;
  allowanceBytes: number;
  usedPercent: number;
  trafficState: TrafficState;
  /** Whether the product says to stop serving once the allowance is used up. */
  stops: boolean;
};

/** State from usage: unlimited is always normal; warning from 80 %, limited at 100 %. */
export const stateOf = ({ used, allowance }: { used: number; allowance: number }): TrafficState => {
  if (allowance <= 0) return 'normal';
  if (used >= allowance) return 'limited';
  return used * 100 >= allowance * TRAFFIC_WARNING_PERCENT ? 'warning' : 'normal';
};

/** Each site's usage of one month: bytes served from the analytics store, allowance from product and plans. */
export async function usageOf(deps: AppDeps, { sites, month }: { sites: SiteTerms[]; month: Month }) {
  const out = new Map<number, SiteUsage>();
  if (!sites.length) return out;
  const ids = sites.map((s) => s.siteId);
  const totals = new Map((await deps.analytics.totalsBySite({ ...monthRange(month), siteIds: ids })).map((t) => [t.siteId, t]));
  const extra = await extraTrafficOf(deps.db, ids, month);
  for (const site of sites) {
    const terms = readTerms(site.productLimits);
    const productTrafficGB = terms.monthlyTrafficGB;
    const extraTrafficGB = extra.get(site.siteId) ?? 0;
    const allowanceBytes = productTrafficGB > 0 ? (productTrafficGB + extraTrafficGB) * BYTES_PER_GB : 0;
    const t = totals.get(site.siteId);
    const used = t?.bytesSent ?? 0;
    out.set(site.siteId, {
      bytesSent: used,
      bytesReceived: t?.bytesReceived ?? 0,
      requests: t?.requests ?? 0,
      productTrafficGB,
      extraTrafficGB,
      allowanceBytes,
      usedPercent: allowanceBytes ? Math.floor((used * 100) / allowanceBytes) : 0,
      trafficState: stateOf({ used, allowance: allowanceBytes }),
      stops: (terms.exceedAction ?? 'none') !== 'none',
    });
  }
  return out;
}
