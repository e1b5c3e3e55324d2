import { Codes, edge, type wafAclSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { sitesRepo } from '../sites/repo';
import { sitesChanged } from '../sites/service';
import { triggerRatesOfSite } from '../client-settings/repo';
import { anticcRepo, type AnticcInput } from './repo';

/** The windows and thresholds the form offers; any value in range is taken. */
export const FREQS = { seconds: [5, 10, 30, 60, 300], times: [10, 30, 60, 100, 300, 1000], defaults: { seconds: 10, times: 60 } };

function checkRegex(urlRegex: string) {
  const problem = edge.regexProblem(urlRegex);
  if (problem) throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field: 'urlRegex', message: `the URL regular expression is refused: ${problem}` }] } });
}

export async function listAnticcs(deps: AppDeps, principal: Principal, siteId: number, query: z.infer<typeof wafAclSchemas.anticcsQuery>) {
  return anticcRepo(deps.db, await sitesRepo(deps, principal).get(siteId)).page(query);
}

export async function createAnticc(deps: AppDeps, principal: Principal, siteId: number, body: AnticcInput) {
  const site = await sitesRepo(deps, principal).get(siteId);
  checkRegex(body.urlRegex);
  const item = await anticcRepo(deps.db, site).insert(body);
  await sitesChanged(deps, [site]);
  return item;
}

export async function updateAnticc(deps: AppDeps, principal: Principal, siteId: number, body: Partial<AnticcInput> & { id: number }) {
  const site = await sitesRepo(deps, principal).get(siteId);
  const rules = anticcRepo(deps.db, site);
  const { id, ...changes } = body;
  const next = { ...(await rules.get(id)), ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) } as AnticcInput;
  checkRegex(next.urlRegex);
  await rules.update(id, next);
  await sitesChanged(deps, [site]);
  return rules.get(id);
}

export async function enableAnticcs(deps: AppDeps, principal: Principal, siteId: number, ids: number[], enabled: boolean) {
  const site = await sitesRepo(deps, principal).get(siteId);
  const rules = anticcRepo(deps.db, site);
  await rules.owned(ids);
  await rules.setEnabled(ids, enabled);
  await sitesChanged(deps, [site]);
}

/** Spec §4: an enabled rule must be closed before removal. */
export async function removeAnticcs(deps: AppDeps, principal: Principal, siteId: number, ids: number[]) {
  const rules = anticcRepo(deps.db, await sitesRepo(deps, principal).get(siteId));
  const enabled = (await rules.owned(ids)).filter((r) => r.enabled).map((r) => r.id);
  if (enabled.length) throw new ApiError(Codes.Parameter, { extra: { reason: 'close enabled rules before removing them', ids: enabled } });
  await rules.remove(ids);
}

/** The windows and thresholds offered: the common ones and the client's predefined trigger rates; the first rate starts a new rule. */
export async function anticcFreqs(deps: AppDeps, principal: Principal, siteId: number) {
  await sitesRepo(deps, principal).get(siteId);
  const { rates } = await triggerRatesOfSite(deps, siteId);
  const merged = (own: number[], preset: number[]) => [...new Set([...own, ...preset])].sort((a, b) => a - b);
  return {
    seconds: merged(FREQS.seconds, rates.map((r) => r.seconds)),
    times: merged(FREQS.times, rates.map((r) => r.requests)),
    defaults: { seconds: rates[0].seconds, times: rates[0].requests },
  };
}
