import { securitySchemas } from '@edgekeep/contract';
import type { RefusalDimension, Scope } from '../../analytics/types';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { resolveScope } from '../statistics/scope';
import { windowOf } from '../statistics/window';
import { ruleLabels } from './rule-labels';

type Body = securitySchemas.SecurityBody;
type ReportType = securitySchemas.ReportType;
type Group = securitySchemas.ReportGroup;

const typeOf = (group: Group, type: number) => (securitySchemas.REPORT_TYPES[group] as Record<number, ReportType>)[type];
/** The block types a report's lines are of: none for every refusal. */
const blockTypes = (among: securitySchemas.Among) => (typeof among === 'number' ? [among] : undefined);

/** The body's filter resolved into the store's scope and the window it covers. */
const resolve = (deps: AppDeps, principal: Principal, body: Body) =>
  resolveScope(deps, principal, { ...body, countsType: 'requests', outcomes: 'all', area: 'country' });

async function cardValue(deps: AppDeps, scope: Scope, r: ReportType) {
  if (r.among === 'all') return (await deps.analytics.cards(scope)).requests;
  const refused = await deps.analytics.refusals(scope, { types: blockTypes(r.among) });
  return r.measure === 'sourceIps' ? refused.sourceIps : refused.requests;
}

export async function securityCards(deps: AppDeps, principal: Principal, body: Body) {
  const { scope, window } = await resolve(deps, principal, body);
  const cards = [];
  for (const type of body.types) cards.push({ type, value: await cardValue(deps, scope, typeOf('cards', type)) });
  return { window: windowOf(window), cards };
}

/** One top of a report type: all requests by country or city from the statistics rollups, refusals from their own. */
async function topOf(deps: AppDeps, scope: Scope, o: { type: number; report: ReportType; limit: number }) {
  const by = o.report.by as RefusalDimension;
  const found =
    o.report.among === 'all' && (by === 'country' || by === 'city')
      ? await deps.analytics.top(scope, { dimension: by, limit: o.limit, by: 'requests' })
      : await deps.analytics.refusalTop(scope, { types: blockTypes(o.report.among), by, limit: o.limit });
  const total = found.total.requests;
  const label = by === 'blockRule' ? await ruleLabels(deps, { siteIds: scope.siteIds, keys: found.rows.map((r) => r.key) }) : (key: string) => key;
  return {
    type: o.type,
    items: found.rows.map((r) => ({ key: r.key, label: label(r.key), count: r.requests, traffic: r.traffic, share: total ? Math.round((r.requests * 100) / total) : 0 })),
    total,
  };
}

/** The tops of the cards-free groups (tops, areaTops): one per type asked for, `top` long. */
export async function securityTops(deps: AppDeps, principal: Principal, group: 'tops' | 'areaTops', body: Body) {
  const { scope, window } = await resolve(deps, principal, body);
  const tops = [];
  for (const type of body.types) tops.push(await topOf(deps, scope, { type, report: typeOf(group, type), limit: body.top }));
  return { window: windowOf(window), tops };
}

/** The blacklist and WAF groups: a series per bucket for their `time` types, a top for the others. */
export async function securityReport(deps: AppDeps, principal: Principal, group: 'blacklist' | 'waf', body: Body) {
  const { scope, window } = await resolve(deps, principal, body);
  const series = [];
  const tops = [];
  for (const type of body.types) {
    const report = typeOf(group, type);
    if (report.by !== 'time') {
      tops.push(await topOf(deps, scope, { type, report, limit: body.top }));
      continue;
    }
    const points = await deps.analytics.refusalSeries(scope, { types: blockTypes(report.among) });
    series.push({ type, points: points.map((p) => ({ time: p.time.toISOString(), count: p.requests })) });
  }
  return { window: windowOf(window), series, tops };
}
