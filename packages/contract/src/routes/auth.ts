import { z } from 'zod';
import * as s from '../schemas/account';
import { done, envelope } from '../paging';
import { defineRoute, perTier } from '../route';

const tag = 'Sign-in and account';

export const authRoutes = {
  login: perTier((tier) =>
    defineRoute({ id: `${tier}.login`, method: 'POST', path: `${tier}/login`, tier, public: true, tag,
      summary: 'Check the password and start the second factor (mails a code when login2FAType is 0)',
      body: s.loginBody, response: envelope(s.loginResult) })),
  code: perTier((tier) =>
    defineRoute({ id: `${tier}.code`, method: 'POST', path: `${tier}/code`, tier, public: true, tag,
      summary: 'Finish sign-in with the mailed, authenticator or returned code', body: s.codeBody, response: envelope(s.tokens) })),
  refresh: perTier((tier) =>
    defineRoute({ id: `${tier}.refresh`, method: 'PATCH', path: tier, tier, public: true, tag,
      summary: 'Exchange a refresh token (or an API token) for new tokens; session refresh tokens rotate',
      body: s.refreshBody, response: envelope(s.tokens) })),
  logout: perTier((tier) =>
    defineRoute({ id: `${tier}.logout`, method: 'DELETE', path: tier, tier, tag,
      summary: 'Sign out: revokes the session of the token', body: s.logoutBody, response: done })),
  changePassword: perTier((tier) =>
    defineRoute({ id: `${tier}.changePassword`, method: 'PATCH', path: `${tier}/password`, tier, tag,
      summary: "Change the signed-in account's own password; other sessions are signed out",
      body: s.changePasswordBody, response: done })),
  subPassword: perTier((tier) =>
    defineRoute({ id: `${tier}.subPassword`, method: 'PUT', path: `${tier}/account/password`, tier, tag,
      summary: 'Set the password of an account below the signed-in one', body: s.subPasswordBody, response: done })),
  resendEmail: perTier((tier) =>
    defineRoute({ id: `${tier}.resendEmail`, method: 'POST', path: `${tier}/account/resendEmail`, tier, tag,
      summary: 'Mail a new set-password link to an account below the signed-in one', body: s.accountRef, response: done })),
  self: perTier((tier) =>
    defineRoute({ id: `${tier}.self`, method: 'GET', path: `${tier}/account/self`, tier, tag,
      summary: 'Self information of the signed-in account', response: envelope(s.selfInfo) })),
  updateSelf: perTier((tier) =>
    defineRoute({ id: `${tier}.updateSelf`, method: 'PUT', path: `${tier}/account/self`, tier, tag,
      summary: 'Edit own name and login-notify flag', body: s.updateSelfBody, response: envelope(s.selfInfo) })),
  verify: perTier((tier) =>
    defineRoute({ id: `${tier}.verify`, method: 'POST', path: `${tier}/verify`, tier, tag,
      summary: "Confirm the signed-in account's password before a sensitive step", body: s.verifyBody, response: done })),
  twoFactorPhase0: perTier((tier) =>
    defineRoute({ id: `${tier}.2fa.phase0`, method: 'POST', path: `${tier}/login2fa/phase0`, tier, tag,
      summary: 'Start turning the authenticator on or off: verification by the current method first',
      body: z.object({}).optional(), response: envelope(s.twoFactorPhase0Result) })),
  twoFactorPhase1: perTier((tier) =>
    defineRoute({ id: `${tier}.2fa.phase1`, method: 'POST', path: `${tier}/login2fa/phase1`, tier, tag,
      summary: 'Verify the current method; when enabling, answers the QR code of a new secret, when disabling, turns it off',
      body: s.twoFactorCodeBody, response: envelope(s.twoFactorPhase1Result) })),
  twoFactorPhase2: perTier((tier) =>
    defineRoute({ id: `${tier}.2fa.phase2`, method: 'POST', path: `${tier}/login2fa/phase2`, tier, tag,
      summary: 'Confirm a code of the new authenticator secret and turn it on',
      body: s.twoFactorCodeBody, response: envelope(s.twoFactorPhase2Result) })),
  logo: perTier((tier) =>
    defineRoute({ id: `${tier}.logo`, method: 'GET', path: `${tier}/logo`, tier, public: true, tag: 'Branding',
      summary: 'Branding shown on the sign-in screens: custom, or the default title and copyright', response: envelope(s.branding) })),
  tokenCheck: defineRoute({ id: 'token.check', method: 'POST', path: 'token/check', tier: 'any', public: true, readOnly: true, tag,
    summary: 'Check a set-password mail token', body: s.mailTokenBody, response: envelope(s.mailTokenInfo) }),
  registerPassword: defineRoute({ id: 'register.password', method: 'POST', path: 'register/password', tier: 'any', public: true, tag,
    summary: 'Create the password of an account from its mail token', body: s.registerPasswordBody, response: done }),
} as const;
