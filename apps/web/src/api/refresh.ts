import type { Tier } from '@edgekeep/contract/tiers';
import { clearTokens, readTokens, writeTokens } from './cookies';
import { apiUrl } from './url';

const running = new Map<Tier, Promise<boolean>>();

async function exchange(tier: Tier): Promise<boolean> {
  const current = readTokens(tier);
  if (!current) return false;
  // The route table loads with the first refresh, not with the console (the route client needs this file).
  const route = (await import('@edgekeep/contract/routes/auth')).authRoutes.refresh[tier];
  const res = await fetch(apiUrl(route.path), {
    method: route.method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refreshToken: current.refreshToken, accessToken: current.accessToken }),
  }).catch(() => undefined);
  const answer = res?.ok ? route.response.safeParse(await res.json().catch(() => undefined)) : undefined;
  if (!answer?.success) {
    clearTokens(tier);
    return false;
  }
  writeTokens(tier, answer.data.data);
  return true;
}

/**
 * Exchanges the tier's refresh token once, however many calls ask at the same time: every refresh token
 * works once, so a second exchange would end the session. Answers whether the session goes on.
 */
export function refreshSession(tier: Tier): Promise<boolean> {
  const pending = running.get(tier);
  if (pending) return pending;
  const next = exchange(tier).finally(() => running.delete(tier));
  running.set(tier, next);
  return next;
}
