import type { schemas } from '@edgekeep/contract';
import type { z } from 'zod';

/** Shapes of the sign-in and account calls, taken from the contract (types only: no zod in the bundle). */
export type SelfInfo = z.infer<typeof schemas.selfInfo>;
export type LoginResult = z.infer<typeof schemas.loginResult>;
export type Branding = z.infer<typeof schemas.branding>;
export type MailTokenInfo = z.infer<typeof schemas.mailTokenInfo>;
export type UpdateSelfBody = z.infer<typeof schemas.updateSelfBody>;
export type TwoFactorPhase0 = z.infer<typeof schemas.twoFactorPhase0Result>;
export type TwoFactorPhase1 = z.infer<typeof schemas.twoFactorPhase1Result>;
export type TwoFactorPhase2 = z.infer<typeof schemas.twoFactorPhase2Result>;
