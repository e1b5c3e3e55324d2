import { describe, expect, it } from 'vitest';
import { cors, headerRule, redirectRule, rewriteRule, safeRegex, wafSetting } from './desired-state';

describe('site module schemas', () => {
  it("takes '*' or one https origin for CORS, max-age 1 to 86400, and no credentials with '*'", () => {
    const ok = { allowOrigin: 'https://app.example.com', allowMethods: ['GET'], maxAge: 1 };
    expect(cors.safeParse(ok).success).toBe(true);
    expect(cors.safeParse({ ...ok, allowOrigin: '*', maxAge: 86_400 }).success).toBe(true);
    for (const bad of [
      { ...ok, allowOrigin: 'https://a.example.com, https://b.example.com' },
      { ...ok, allowOrigin: 'http://app.example.com' },
      { ...ok, maxAge: 0 },
      { ...ok, maxAge: 86_401 },
      { ...ok, allowOrigin: '*', allowCredentials: true },
    ]) {
      expect(cors.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('refuses regexes that do not compile or nest quantifiers', () => {
    expect(safeRegex.safeParse('^/item/(\\d+)$').success).toBe(true);
    for (const bad of ['(a+)+', '(x*)*y', '([']) expect(safeRegex.safeParse(bad).success, bad).toBe(false);
    expect(redirectRule.safeParse({ match: 'regex', source: '(a+)+', target: '/', code: 301 }).success).toBe(false);
    expect(rewriteRule.safeParse({ match: 'prefix', source: '/a/', target: '/b/' }).success).toBe(true);
    expect(headerRule.safeParse({ name: 'X-A', operator: 'equals' }).success).toBe(false);
  });

  it('bounds the managed rule set: paranoia 1 to 4 and CRS rule ids', () => {
    expect(wafSetting.safeParse({ mode: 'block', paranoia: 4, excludedRules: [942100] }).success).toBe(true);
    expect(wafSetting.safeParse({ mode: 'block', paranoia: 5 }).success).toBe(false);
    expect(wafSetting.safeParse({ mode: 'block', paranoia: 1, excludedRules: [1] }).success).toBe(false);
  });
});
