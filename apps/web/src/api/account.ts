import type * as s from '@edgekeep/contract/schemas/account';
import type { Tier } from '@edgekeep/contract/tiers';
import type { z } from 'zod';

/**
 * The route table and the typed client (with zod, which reads the answers) stay out of the startup chunk: they are
 * asked for as the console starts, beside its own code, so the shell's first call (self) need not wait for them.
 */
const load = () => Promise.all([import('@edgekeep/contract/routes/auth'), import('./route-client')]);
void load().catch(() => undefined);

/** The sign-in and own-account calls of spec §7 ("Account calls"). */
export async function accountCalls() {
  const [{ authRoutes: r }, { callRoute, dataOf }] = await load();
  return {
    login: (tier: Tier, body: z.input<typeof s.loginBody>) => dataOf(callRoute(r.login[tier], { body })),
    code: (tier: Tier, body: z.input<typeof s.codeBody>) => dataOf(callRoute(r.code[tier], { body })),
    logout: (tier: Tier, body: z.input<typeof s.logoutBody>) => callRoute(r.logout[tier], { body }),
    self: (tier: Tier) => dataOf(callRoute(r.self[tier], { delayMs: 0 })),
    updateSelf: (tier: Tier, body: z.input<typeof s.updateSelfBody>) => dataOf(callRoute(r.updateSelf[tier], { body })),
    changePassword: (tier: Tier, body: z.input<typeof s.changePasswordBody>) => callRoute(r.changePassword[tier], { body }),
    twoFactorPhase0: (tier: Tier) => dataOf(callRoute(r.twoFactorPhase0[tier])),
    twoFactorPhase1: (tier: Tier, body: z.input<typeof s.twoFactorCodeBody>) => dataOf(callRoute(r.twoFactorPhase1[tier], { body })),
    twoFactorPhase2: (tier: Tier, body: z.input<typeof s.twoFactorCodeBody>) => dataOf(callRoute(r.twoFactorPhase2[tier], { body })),
    /** Signed in, the call carries the session: the shell shows the branding of the caller's own client. */
    branding: (tier: Tier, signedIn = false) => dataOf(callRoute(r.logo[tier], { delayMs: 0, tier: signedIn ? tier : undefined })),
    checkMailToken: (token: string) => dataOf(callRoute(r.tokenCheck, { body: { token } })),
    registerPassword: (body: z.input<typeof s.registerPasswordBody>) => callRoute(r.registerPassword, { body }),
  };
}
