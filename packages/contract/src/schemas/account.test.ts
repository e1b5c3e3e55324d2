import { describe, expect, it } from 'vitest';
import { accountName, email, otpCode, password } from './account';

describe('account rules of spec §5', () => {
  it('takes names of English letters, digits and hyphens, never "default"', () => {
    for (const ok of ['shop', 'Shop-2', 'a', 'x-1-y']) expect(accountName.safeParse(ok).success, ok).toBe(true);
    for (const bad of ['default', 'Default', 'two words', 'under_score', 'dot.name', 'ünï', '', 'a'.repeat(65)]) {
      expect(accountName.safeParse(bad).success, bad).toBe(false);
    }
  });

  it('takes well-formed e-mail addresses, lower-cased', () => {
    expect(email.parse(' Ops@Example.COM ')).toBe('ops@example.com');
    for (const bad of ['ops', 'ops@', '@example.com', 'a b@example.com']) expect(email.safeParse(bad).success, bad).toBe(false);
  });

  it('takes passwords of at least 8 characters and codes of exactly 6 digits', () => {
    expect(password.safeParse('1234567').success).toBe(false);
    expect(password.safeParse('12345678').success).toBe(true);
    for (const bad of ['12345', '1234567', '12345a', ' 123456']) expect(otpCode.safeParse(bad).success, bad).toBe(false);
    expect(otpCode.safeParse('012345').success).toBe(true);
  });
});
