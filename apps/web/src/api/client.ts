import { Codes } from '@edgekeep/contract/errors';
import { POST_CALL_DELAY_MS, REQUEST_TIMEOUT_MS } from '@edgekeep/contract/constants';
import type { Tier } from '@edgekeep/contract/tiers';
import { currentLanguage } from '../i18n';
import { readTokens } from './cookies';
import { ApiFailure } from './failure';
import { refreshSession } from './refresh';
import { apiUrl, type Query } from './url';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type CallOptions = {
  method?: Method;
  query?: Query;
  /** A JSON value, or form data sent as it is. */
  body?: unknown;
  /** The area whose session cookies sign the call; omitted for calls that need no token. */
  tier?: Tier;
  /** Pause after the call finishes (spec §7: 200 ms by default). */
  delayMs?: number;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function send(path: string, opts: CallOptions) {
  const headers: Record<string, string> = { 'accept-language': currentLanguage().replace('_', '-') };
  const tokens = opts.tier ? readTokens(opts.tier) : undefined;
  if (tokens) headers.authorization = `${tokens.tokenType} ${tokens.accessToken}`;
  const isForm = opts.body instanceof FormData;
  if (opts.body !== undefined && !isForm) headers['content-type'] = 'application/json';
  const body = opts.body === undefined ? undefined : isForm ? (opts.body as FormData) : JSON.stringify(opts.body);
  const res = await fetch(apiUrl(path, opts.query), {
    method: opts.method ?? 'GET',
    headers,
    body,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  }).catch(() => undefined);
  if (!res) throw new ApiFailure(0, undefined, opts.tier);
  return { res, usedToken: tokens?.accessToken };
}

async function failureOf(res: Response, tier: Tier | undefined) {
  const body = await res.json().catch(() => undefined);
  return new ApiFailure(res.status, body && typeof body === 'object' ? body : undefined, tier);
}

/**
 * One call: signs it with the tier's cookies, and on an expired access token (101014) waits for the single
 * refresh of that tier and sends the call again. Answers the raw response of a successful call.
 */
export async function callRaw(path: string, opts: CallOptions = {}): Promise<Response> {
  const first = await send(path, opts);
  let res = first.res;
  if (!res.ok && opts.tier) {
    const failure = await failureOf(res.clone(), opts.tier);
    if (failure.code === Codes.TokenExpired) {
      const renewed = readTokens(opts.tier)?.accessToken;
      const goOn = (renewed !== undefined && renewed !== first.usedToken) || (await refreshSession(opts.tier));
      if (!goOn) throw new ApiFailure(401, { code: Codes.RefreshTokenFailed, message: failure.message }, opts.tier);
      res = (await send(path, opts)).res;
    }
  }
  if (!res.ok) throw await failureOf(res, opts.tier);
  await sleep(opts.delayMs ?? POST_CALL_DELAY_MS);
  return res;
}

/** The file name a download answer gives in Content-Disposition (RFC 6266, with the UTF-8 form preferred). */
export function fileNameOf(res: Response, fallback: string): string {
  const header = res.headers.get('content-disposition') ?? '';
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (star) return decodeURIComponent(star[1].trim());
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(header);
  return plain ? plain[1].trim() : fallback;
}

/** A call whose answer is a file: saves it under the name the server gives. */
export async function download(path: string, opts: CallOptions & { fallbackName: string }) {
  const res = await callRaw(path, opts);
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = fileNameOf(res, opts.fallbackName);
  a.click();
  URL.revokeObjectURL(url);
}
