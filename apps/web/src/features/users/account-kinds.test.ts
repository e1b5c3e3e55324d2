import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import type { AccountItem } from './queries';
import { createBody, isRootKind, switchUserUrl, updateBody } from './account-kinds';

describe('account form bodies', () => {
  it('knows which new accounts are roots of their tier and hold no role', () => {
    expect(isRootKind('admin', 'client')).toBe(true);
    expect(isRootKind('admin', 'admin')).toBe(false);
    expect(isRootKind('client', 'user')).toBe(true);
    expect(isRootKind('client', 'client')).toBe(false);
    expect(isRootKind('user', 'user')).toBe(false);
  });

  it('creates without a password (the set-password mail) and sends a role only where one is held', () => {
    expect(createBody('client', { auth: 'user', email: 'a@example.com', name: 'shop', roleID: 4 })).toEqual({
      email: 'a@example.com',
      name: 'shop',
      auth: 'user',
      expiredAt: null,
      loginNotify: false,
      grade: 0,
      dnsType: null,
    });
    const expiry = dayjs('2030-01-02T03:04:00Z');
    expect(createBody('user', { auth: 'user', email: 'b@example.com', name: 'b', password: 'long enough', roleID: 7, expiredAt: expiry, loginNotify: true, grade: 3 })).toEqual({
      email: 'b@example.com',
      name: 'b',
      password: 'long enough',
      roleID: 7,
      expiredAt: '2030-01-02T03:04:00.000Z',
      loginNotify: true,
      grade: 3,
      dnsType: null,
    });
  });

  it('never sends a role for a root account on edit', () => {
    const root = { id: 9, isRoot: true, enabled: true } as AccountItem;
    expect(updateBody(root, { name: 'x', roleID: 3, dnsType: ' cf ' })).toEqual({
      id: 9, name: 'x', enabled: true, expiredAt: null, loginNotify: false, grade: 0, dnsType: 'cf',
    });
    expect(updateBody({ ...root, isRoot: false }, { name: 'x', roleID: 3, enabled: false })).toMatchObject({ roleID: 3, enabled: false });
  });

  it('opens the switched-into session on the tier the account belongs to', () => {
    expect(switchUserUrl({ auth: 'user', accessToken: 'a.b', refreshToken: 'r+/', tokenType: 'Bearer' })).toBe(
      '/user/switchUser?accessToken=a.b&refreshToken=r%2B%2F&tokenType=Bearer',
    );
  });
});
