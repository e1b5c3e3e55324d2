import { z } from 'zod';
import { REPORT_INTERVALS } from './statistics';

/**
 * The editable widget dashboard of the client and admin areas (spec §2 Dashboard, §9 dashboard defaults): pages of
 * widgets on a 12-column grid, one layout per account.
 */

/** Each measure as a card (a total over the range) and as a time-series chart. */
export const WIDGET_MEASURES = ['traffic', 'cache', 'bandwidth', 'requests', 'upstream', 'status'] as const;
export type WidgetMeasure = (typeof WIDGET_MEASURES)[number];
export const WIDGET_TYPES = [...WIDGET_MEASURES.map((m) => `${m}Card` as const), ...WIDGET_MEASURES.map((m) => `${m}Chart` as const)];
export type WidgetType = (typeof WIDGET_TYPES)[number];
/** The ranges a widget covers: the last 24 hours or the last 30 days, ending now. */
export const WIDGET_RANGES = ['last24Hours', 'last30Days'] as const;
export type WidgetRange = (typeof WIDGET_RANGES)[number];
export const WIDGET_RANGE_INTERVAL = { last24Hours: 'oneDay', last30Days: 'thirtyDays' } as const;
/** Spec §9: report interval 15 for traffic, bandwidth, request and status code. */
export const WIDGET_REPORT_INTERVAL = 15;

export const DASHBOARD_COLS = 12;
export const DASHBOARD_MAX_ROWS = 200;
export const DASHBOARD_MAX_PAGES = 20;
export const DASHBOARD_MAX_WIDGETS = 40;
const NAME_MAX = 64;

const key = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and -, at most 64');

export const widgetOptions = z.strictObject({
  range: z.enum(WIDGET_RANGES).default('last24Hours'),
  reportInterval: z.union(REPORT_INTERVALS.map((n) => z.literal(n))).default(WIDGET_REPORT_INTERVAL),
  /** Shown instead of the widget type's name. */
  title: z.string().trim().max(NAME_MAX).optional(),
});

export const widget = z
  .strictObject({
    i: key,
    type: z.enum(WIDGET_TYPES),
    x: z.number().int().min(0).max(DASHBOARD_COLS - 1),
    y: z.number().int().min(0).max(DASHBOARD_MAX_ROWS),
    w: z.number().int().min(1).max(DASHBOARD_COLS),
    h: z.number().int().min(1).max(24),
    options: widgetOptions.default({ range: 'last24Hours', reportInterval: WIDGET_REPORT_INTERVAL }),
  })
  .refine((w) => w.x + w.w <= DASHBOARD_COLS, { message: `x + w must not pass ${DASHBOARD_COLS} columns`, path: ['w'] });
export type Widget = z.infer<typeof widget>;

const unique = <T>(items: T[], keyOf: (t: T) => string, ctx: z.RefinementCtx, field: string) => {
  const seen = new Set<string>();
  items.forEach((item, n) => {
    if (seen.has(keyOf(item))) ctx.addIssue({ code: 'custom', path: [n, field], message: `duplicate ${field}` });
    seen.add(keyOf(item));
  });
};

export const dashboardPage = z.strictObject({
  id: key,
  name: z.string().trim().min(1).max(NAME_MAX),
  widgets: z.array(widget).max(DASHBOARD_MAX_WIDGETS).superRefine((ws, ctx) => unique(ws, (w) => w.i, ctx, 'i')),
});
export type DashboardPage = z.infer<typeof dashboardPage>;

/** A whole dashboard: what PUT stores, GET answers, and an exported file holds. No pages: a deleted dashboard. */
export const dashboardLayout = z.strictObject({
  pages: z.array(dashboardPage).max(DASHBOARD_MAX_PAGES).superRefine((ps, ctx) => unique(ps, (p) => p.id, ctx, 'id')),
});
export type DashboardLayout = z.infer<typeof dashboardLayout>;

export const dashboardAnswer = dashboardLayout.extend({
  /** When the account last saved it; null while it sees the default layout. */
  updatedAt: z.string().nullable(),
});

const w = (i: string, type: WidgetType, at: Pick<Widget, 'x' | 'y' | 'w' | 'h'>, range: WidgetRange = 'last24Hours'): Widget => ({
  i, type, ...at, options: { range, reportInterval: WIDGET_REPORT_INTERVAL },
});
const card = (n: number, type: WidgetType) => w(`card-${type}`, type, { x: (n % 6) * 2, y: 0, w: 2, h: 3 });

/** The layout an account sees until it saves its own, and after a reset: the six cards, then 24-hour and 30-day charts. */
export const DEFAULT_DASHBOARD: DashboardLayout = {
  pages: [
    {
      id: 'overview',
      name: 'Overview',
      widgets: [
        ...WIDGET_MEASURES.map((m, n) => card(n, `${m}Card`)),
        w('chart-traffic', 'trafficChart', { x: 0, y: 3, w: 6, h: 6 }),
        w('chart-bandwidth', 'bandwidthChart', { x: 6, y: 3, w: 6, h: 6 }),
        w('chart-requests', 'requestsChart', { x: 0, y: 9, w: 6, h: 6 }),
        w('chart-status', 'statusChart', { x: 6, y: 9, w: 6, h: 6 }),
        w('chart-traffic-30d', 'trafficChart', { x: 0, y: 15, w: 12, h: 6 }, 'last30Days'),
      ],
    },
  ],
};
