import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { lane, startTestApp, type TestApp } from '../../test/harness';
import { readAccessToken, signAccessToken } from './auth';

lane('access tokens verified once', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterEach(() => vi.useRealTimers());
  afterAll(() => t.close());

  const codeOf = (p: Promise<unknown>) => p.then(() => 'accepted', (e: { code?: number }) => e.code);

  it('are still refused once expired (101014), and a token differing by its signature is not taken for one verified', async () => {
    const token = await signAccessToken(t.deps, { accountId: 7, tier: 'user', sessionId: 3, seconds: 60 });
    expect(await readAccessToken(t.deps, token)).toEqual({ accountId: 7, tier: 'user', sessionId: 3 });
    expect(await readAccessToken(t.deps, token)).toEqual({ accountId: 7, tier: 'user', sessionId: 3 });
    const at = token.length - 10;
    const forged = `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
    expect(await codeOf(readAccessToken(t.deps, forged))).toBe(101013);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000 });
    expect(await codeOf(readAccessToken(t.deps, token))).toBe(101014);
  });

  it("are kept per key: another platform's token is refused however often this one verified its own", async () => {
    const other = await startTestApp();
    try {
      const theirs = await signAccessToken(other.deps, { accountId: 7, tier: 'user', sessionId: 3 });
      expect(await readAccessToken(other.deps, theirs)).toMatchObject({ accountId: 7 });
      expect(await codeOf(readAccessToken(t.deps, theirs))).toBe(101013);
    } finally {
      await other.close();
    }
  });
});
