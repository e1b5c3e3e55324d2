import type { Tier } from '@edgekeep/contract/tiers';
import { clearTokens, readTokens, writeTokens, type Tokens } from './cookies';
import { apiUrl } from './url';

const running = new Map<Tier, Promise<boolean>>();

async function exchange(tier: Tier): Promise<boolean> {
  const current = readTokens(tier);
  if (!current) return false;
  const res = await fetch(apiUrl(tier), {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refreshToken: current.refreshToken, accessToken: current.accessToken }),
  }).catch(() => undefined);
  if (!res?.ok) {
    clearTokens(tier);
    return false;
  }
  const { data } = (await res.json()) as { data: Tokens };
  writeTokens(tier, data);
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
