import type { schemas } from '@edgekeep/contract';
import type { z } from 'zod';

/** Shapes of the account answers the shell and the account screens hold, taken from the contract (types only: no zod in the bundle). */
export type SelfInfo = z.infer<typeof schemas.selfInfo>;
export type Branding = z.infer<typeof schemas.branding>;
export type UpdateSelfBody = z.infer<typeof schemas.updateSelfBody>;
export type TwoFactorPhase1 = z.infer<typeof schemas.twoFactorPhase1Result>;
