import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readTokens, writeTokens } from '../api/cookies';
import { HandledFailure } from '../api/failure';
import { setNavigator } from './navigation';
import { loadSelf } from './use-self';

const visited: string[] = [];
beforeEach(() => {
  visited.length = 0;
  setNavigator((to) => visited.push(to));
  writeTokens('user', { accessToken: 'A', refreshToken: 'R', tokenType: 'Bearer' });
});
afterEach(() => vi.unstubAllGlobals());

/** A whole self answer: the client reads it with the contract's schema. */
const self = (auth: string) => ({
  id: 1, auth, email: 'a@example.com', name: 'a', isRoot: true, dnsType: null, maxLogExportTimes: 5, login2FAType: 0, loginNotify: false, emailConfirmed: true,
  expiredAt: null, permissions: [], permissionKeys: [], proxy: null, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z',
});
const answerSelf = (auth: string) => vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ data: self(auth) }), { status: 200 }));

describe('self check', () => {
  it('answers self information of the same tier', async () => {
    answerSelf('user');
    await expect(loadSelf('user')).resolves.toMatchObject({ auth: 'user' });
    expect(readTokens('user')).toBeDefined();
    expect(visited).toEqual([]);
  });

  it('clears the tokens and goes to login when auth differs from the tier', async () => {
    answerSelf('client');
    await expect(loadSelf('user')).rejects.toBeInstanceOf(HandledFailure);
    expect(readTokens('user')).toBeUndefined();
    expect(visited).toEqual(['/user/login']);
  });
});
