import { describe, expect, it } from 'vitest';
import { setNavigator } from './navigation';
import { endSession } from './session';
import { SELECTED_SITE_KEY } from './stored-selections';

describe('endSession', () => {
  it('forgets the stored site selection with the tokens and opens the login form (spec §4 Logout)', () => {
    const visited: string[] = [];
    setNavigator((to) => visited.push(to));
    document.cookie = 'u_accessToken=a; path=/';
    localStorage.setItem(SELECTED_SITE_KEY, '7');
    localStorage.setItem('language', 'en_US');
    endSession('user', 'Logout success! See you!', 'success');
    expect(localStorage.getItem(SELECTED_SITE_KEY)).toBeNull();
    expect(localStorage.getItem('language')).toBe('en_US');
    expect(document.cookie).not.toContain('u_accessToken=a');
    expect(visited).toEqual(['/user/login']);
  });
});
