import { COOKIE_LIFETIME_DAYS } from '@edgekeep/contract/constants';
import { cookiePrefix, type Tier } from '@edgekeep/contract/tiers';

export type Tokens = { accessToken: string; refreshToken: string; tokenType: string };
const FIELDS = ['accessToken', 'refreshToken', 'tokenType'] as const;

function readCookie(name: string) {
  const hit = document.cookie.split('; ').find((c) => c.startsWith(`${name}=`));
  return hit ? decodeURIComponent(hit.slice(name.length + 1)) : undefined;
}

function writeCookie(name: string, value: string, days: number) {
  const expires = new Date(Date.now() + days * 86_400_000).toUTCString();
  document.cookie = `${name}=${encodeURIComponent(value)}; expires=${expires}; path=/; SameSite=Lax`;
}

/** The tier's three session cookies, or undefined unless all three exist. */
export function readTokens(tier: Tier): Tokens | undefined {
  const [accessToken, refreshToken, tokenType] = FIELDS.map((f) => readCookie(cookiePrefix(tier) + f));
  if (!accessToken || !refreshToken || !tokenType) return undefined;
  return { accessToken, refreshToken, tokenType };
}

export function writeTokens(tier: Tier, tokens: Tokens) {
  for (const f of FIELDS) writeCookie(cookiePrefix(tier) + f, tokens[f], COOKIE_LIFETIME_DAYS);
}

export function clearTokens(tier: Tier) {
  for (const f of FIELDS) writeCookie(cookiePrefix(tier) + f, '', -1);
}

export const hasSession = (tier: Tier) => readTokens(tier) !== undefined;
