import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearTokens, hasSession, readTokens, writeTokens } from './cookies';

afterEach(() => vi.restoreAllMocks());

describe('session cookies', () => {
  it('stores the three tokens under the tier prefix for two years on the current host', () => {
    const written: string[] = [];
    let owner: object | null = document;
    while (owner && !Object.getOwnPropertyDescriptor(owner, 'cookie')) owner = Object.getPrototypeOf(owner);
    const setter = Object.getOwnPropertyDescriptor(owner!, 'cookie')!.set!;
    vi.spyOn(document, 'cookie', 'set').mockImplementation(function (this: Document, v: string) {
      written.push(v);
      setter.call(this, v);
    });
    writeTokens('client', { accessToken: 'a.b.c', refreshToken: 'r/1', tokenType: 'Bearer' });
    expect(written.map((c) => c.split('=')[0])).toEqual(['c_accessToken', 'c_refreshToken', 'c_tokenType']);
    for (const cookie of written) {
      expect(cookie).toContain('path=/');
      expect(cookie).not.toContain('domain=');
      const expires = Date.parse(/expires=([^;]+)/.exec(cookie)![1]);
      expect(Math.round((expires - Date.now()) / 86_400_000)).toBe(730);
    }
  });

  it('reads a session only when all three cookies exist, per tier', () => {
    writeTokens('admin', { accessToken: 'x', refreshToken: 'y', tokenType: 'Bearer' });
    expect(readTokens('admin')).toEqual({ accessToken: 'x', refreshToken: 'y', tokenType: 'Bearer' });
    expect(hasSession('user')).toBe(false);
    document.cookie = 'a_tokenType=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
    expect(hasSession('admin')).toBe(false);
    writeTokens('admin', { accessToken: 'x', refreshToken: 'y', tokenType: 'Bearer' });
    clearTokens('admin');
    expect(readTokens('admin')).toBeUndefined();
  });
});
