import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { readTokens, writeTokens } from '../api/cookies';
import { ApiFailure } from '../api/failure';
import { initI18n, setLanguage } from '../i18n';
import { setFeedback } from './feedback';
import { handleFailure } from './handle-failure';
import { setNavigator } from './navigation';

const shown = { error: vi.fn(), success: vi.fn(), info: vi.fn(), modal: vi.fn() };
const visited: string[] = [];

beforeAll(async () => {
  await initI18n();
  setFeedback({ message: shown, modal: { error: shown.modal } } as never);
  setNavigator((to) => visited.push(to));
});
beforeEach(async () => {
  vi.clearAllMocks();
  visited.length = 0;
  await setLanguage('en_US');
});

describe('handling a failed call in the console', () => {
  it("toasts the mapped message in the console's language", async () => {
    await setLanguage('zh_CN');
    handleFailure(new ApiFailure(403, { code: 101018, message: 'Permission denied' }, 'client'));
    expect(shown.error).toHaveBeenCalledWith('权限不足');
  });

  it("opens the 'multiple error' modal with a confirm button", () => {
    const errors = [{ code: 401002, message: 'x', targets: ['a.example.com'] }];
    handleFailure(new ApiFailure(400, { code: 101009, message: 'Multiple errors', errors }, 'user'));
    expect(shown.modal).toHaveBeenCalledWith(expect.objectContaining({ title: 'multiple error', okText: 'Confirm' }));
  });

  it('ends the session of the tier and goes to its login form', () => {
    writeTokens('admin', { accessToken: 'a', refreshToken: 'r', tokenType: 'Bearer' });
    handleFailure(new ApiFailure(401, { code: 101016, message: 'Refresh token failed' }, 'admin'));
    expect(readTokens('admin')).toBeUndefined();
    expect(visited).toEqual(['/admin/login']);
    expect(shown.error).toHaveBeenCalledWith('Refresh token failed');
  });

  it("says 'unknown error, try again later' when there is no code", () => {
    handleFailure(new ApiFailure(0, undefined, 'user'));
    expect(shown.error).toHaveBeenCalledWith('unknown error, try again later');
  });

  it('uses the override code of the call for 101025', () => {
    handleFailure(new ApiFailure(409, { code: 101025, message: 'Duplicated data' }, 'user'), 10102502);
    expect(shown.error).toHaveBeenCalledWith('Duplicate keys are not allowed');
  });
});
