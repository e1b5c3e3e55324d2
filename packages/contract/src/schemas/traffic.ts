import { z } from 'zod';
import { TEXT_FIELD_MAX } from '../constants';
import { pageQuery } from '../paging';
import { id, idParam } from './account';
import { ids } from './accounts';

/** Spec §4 traffic state, by its share of the month's allowance: warning from 80 %, limited from 100 %. */
export const TRAFFIC_STATES = ['normal', 'warning', 'limited'] as const;
export const TRAFFIC_WARNING_PERCENT = 80;
/** Decimal units (spec §9): one GB of allowance is 10^9 bytes. */
export const BYTES_PER_GB = 1_000_000_000;

const year = z.coerce.number().int().min(2000).max(9999);
const month = z.coerce.number().int().min(1).max(12);

/**
 * An extra traffic plan (spec: traffic package): `trafficGB` more gigabytes of allowance for one site in one
 * calendar month (UTC), sold at `price` NTD. The site's user and product are the site's own at the time asked.
 */
export const extraTrafficPlanItem = z.object({
  id: z.number(),
  siteID: z.number(),
  siteName: z.string(),
  userID: z.number(),
  userEmail: z.string(),
  productID: z.number(),
  productName: z.string(),
  trafficGB: z.number(),
  /** NTD. */
  price: z.number(),
  year: z.number(),
  month: z.number(),
  memo: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const planFields = {
  siteID: id,
  trafficGB: z.number().int().min(1).max(1_000_000),
  /** NTD; left out, the product's traffic price per GB times trafficGB. */
  price: z.number().min(0).max(1_000_000_000).optional(),
  year,
  month,
  memo: z.string().trim().max(TEXT_FIELD_MAX).default(''),
};
export const createExtraTrafficPlanBody = z.object(planFields);
export const updateExtraTrafficPlanBody = z.object({
  id,
  trafficGB: planFields.trafficGB.optional(),
  price: planFields.price,
  year: year.optional(),
  month: month.optional(),
  memo: z.string().trim().max(TEXT_FIELD_MAX).optional(),
});
export const removeExtraTrafficPlansBody = z.object({ ids });

/** Spec §3 traffic plan filters. */
export const extraTrafficPlansQuery = pageQuery.extend({
  userID: idParam.optional(),
  productID: idParam.optional(),
  productName: z.string().max(TEXT_FIELD_MAX).optional(),
  year: year.optional(),
  month: month.optional(),
});
export const userExtraTrafficPlansQuery = extraTrafficPlansQuery.pick({ page: true, pageSize: true, sortBy: true, orderBy: true, productName: true, year: true, month: true });

/** One site's traffic in one month: bytes the edge really served (from the access logs) against its allowance. */
export const monthlyUsageItem = z.object({
  siteID: z.number(),
  siteName: z.string(),
  userID: z.number(),
  userEmail: z.string(),
  productID: z.number(),
  productName: z.string(),
  year: z.number(),
  month: z.number(),
  /** Bytes sent to clients. */
  bytesSent: z.number(),
  bytesReceived: z.number(),
  requests: z.number(),
  /** The product's monthly traffic (GB, 0 = unlimited). */
  productTrafficGB: z.number(),
  /** The month's extra traffic plans (GB). */
  extraTrafficGB: z.number(),
  /** Bytes allowed in the month; 0 = unlimited. */
  allowanceBytes: z.number(),
  /** Whole percent of the allowance used; 0 when unlimited. */
  usedPercent: z.number(),
  trafficState: z.enum(TRAFFIC_STATES),
  /** Whether the edge refuses the site's requests (929) because of its traffic. */
  limited: z.boolean(),
});
/** The month defaults to the current one (UTC). */
export const monthlyUsagesQuery = pageQuery.extend({ year: year.optional(), month: month.optional(), userID: idParam.optional() });
export const userMonthlyUsagesQuery = monthlyUsagesQuery.omit({ userID: true });

/** The user dashboard's resource usage (spec §2). */
export const resourceInfo = z.object({
  siteCount: z.number(),
  domainCount: z.number(),
  /** Bytes served this and last calendar month (UTC). */
  thisMonthTraffic: z.number(),
  lastMonthTraffic: z.number(),
});

export type ExtraTrafficPlan = z.infer<typeof extraTrafficPlanItem>;
export type MonthlyUsage = z.infer<typeof monthlyUsageItem>;
