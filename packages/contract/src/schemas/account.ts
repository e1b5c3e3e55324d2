import { z } from 'zod';
import { PASSWORD_MIN_LENGTH, TEXT_FIELD_MAX } from '../constants';
import { TIERS } from '../tiers';

export const tier = z.enum(TIERS);

/** Spec §5: English letters, digits and hyphen only; 'default' is not allowed. */
export const accountName = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9-]+$/, 'letters, digits and hyphen only')
  .refine((v) => v.toLowerCase() !== 'default', "'default' is not allowed");
export const email = z.string().trim().toLowerCase().max(TEXT_FIELD_MAX).pipe(z.email());
export const password = z.string().min(PASSWORD_MIN_LENGTH).max(256);
/** Spec §5: two-factor and mailed codes are 6 digits. */
export const otpCode = z.string().regex(/^\d{6}$/, '6 digits');
/** An id in a JSON body: a positive integer, a JSON number only. */
export const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
/** An id in a path or query string: digits only, no sign, exponent, spaces or leading zero. */
export const idParam = z
  .string()
  .regex(/^[1-9][0-9]{0,15}$/, 'a positive integer')
  .transform(Number)
  .pipe(id);

export const login2FAType = z.union([z.literal(0), z.literal(1), z.literal(2)]);

export const loginBody = z.object({ account: email, password: z.string().min(1).max(256) });
export const loginResult = z.object({
  login2FAType,
  onePassKey: z.string(),
  /** Only when login2FAType is 2: the console posts it to `{area}/code` at once. */
  code: z.string().optional(),
});
export const codeBody = z.object({ account: email, onePassKey: z.string().min(1).max(128), code: otpCode });
export const tokens = z.object({ accessToken: z.string(), refreshToken: z.string(), tokenType: z.literal('Bearer') });
export const refreshBody = z.object({ refreshToken: z.string().min(1).max(256), accessToken: z.string().max(4096).optional() });
export const logoutBody = z.object({
  refreshToken: z.string().max(256).optional(),
  accessToken: z.string().max(4096).optional(),
});
export const changePasswordBody = z
  .object({ oldPassword: z.string().min(1).max(256), newPassword: password, confirmPassword: z.string().optional() })
  .refine((v) => v.confirmPassword === undefined || v.confirmPassword === v.newPassword, {
    message: 'The passwords do not match',
    path: ['confirmPassword'],
  });
export const subPasswordBody = z.object({ id, password });
export const accountRef = z.object({ id });

export const selfInfo = z.object({
  id: z.number(),
  auth: tier,
  email: z.string(),
  name: z.string(),
  isRoot: z.boolean(),
  dnsType: z.string().nullable(),
  maxLogExportTimes: z.number(),
  login2FAType,
  loginNotify: z.boolean(),
  emailConfirmed: z.boolean(),
  expiredAt: z.string().nullable(),
  /** Permission keys this account holds. */
  permissions: z.array(z.string()),
  /** Every permission key of the tier. */
  permissionKeys: z.array(z.string()),
  /** Set when this session was opened by switching in from another account. */
  proxy: z.object({ id: z.number(), email: z.string(), auth: tier }).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const updateSelfBody = z.object({ name: accountName.optional(), loginNotify: z.boolean().optional() });

export const twoFactorPhase0Result = z.object({
  onePassKey: z.string(),
  /** The method the current second factor is verified with first: 0 mailed code, 1 authenticator. */
  login2FAType,
  /** true: this flow turns the authenticator on; false: it turns it off. */
  enabling: z.boolean(),
});
export const twoFactorCodeBody = z.object({ onePassKey: z.string().min(1).max(128), code: otpCode });
export const twoFactorPhase1Result = z.object({
  login2FAType,
  onePassKey: z.string().optional(),
  qrCode: z.string().optional(),
  qrCodeData: z.string().optional(),
});
export const twoFactorPhase2Result = z.object({ login2FAType });

export const mailTokenBody = z.object({ token: z.string().min(1).max(256) });
export const mailTokenInfo = z.object({ auth: tier, email: z.string(), id: z.number(), name: z.string(), token: z.string() });
export const registerPasswordBody = z
  .object({ token: z.string().min(1).max(256), password, confirmPassword: z.string().optional() })
  .refine((v) => v.confirmPassword === undefined || v.confirmPassword === v.password, {
    message: 'The passwords do not match',
    path: ['confirmPassword'],
  });
export const verifyBody = z.object({ password: z.string().min(1).max(256) });

export const branding = z.object({
  title: z.string(),
  copyright: z.string(),
  logo: z.string().optional(),
  favicon: z.string().optional(),
  sidebarLogo: z.string().optional(),
  sidebarSimpleLogo: z.string().optional(),
  backgroundImage: z.string().optional(),
  /** Screens the server enables that are hidden by default (spec §1 build-level settings). */
  l4AttackAnalysis: z.boolean().optional(),
});
