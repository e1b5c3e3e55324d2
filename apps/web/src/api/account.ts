import type { Tier } from '@edgekeep/contract/tiers';
import { call } from './client';
import type { Tokens } from './cookies';
import type {
  Branding,
  LoginResult,
  MailTokenInfo,
  SelfInfo,
  TwoFactorPhase0,
  TwoFactorPhase1,
  TwoFactorPhase2,
  UpdateSelfBody,
} from './types';

/** The sign-in and own-account calls of spec §7 ("Account calls"). */
export const accountApi = {
  login: (tier: Tier, body: { account: string; password: string }) =>
    call<LoginResult>(`${tier}/login`, { method: 'POST', body }),
  code: (tier: Tier, body: { account: string; onePassKey: string; code: string }) =>
    call<Tokens>(`${tier}/code`, { method: 'POST', body }),
  logout: (tier: Tier, tokens: Pick<Tokens, 'accessToken' | 'refreshToken'>) =>
    call<unknown>(tier, { method: 'DELETE', tier, body: tokens }),
  self: (tier: Tier) => call<SelfInfo>(`${tier}/account/self`, { tier, delayMs: 0 }),
  updateSelf: (tier: Tier, body: UpdateSelfBody) => call<SelfInfo>(`${tier}/account/self`, { method: 'PUT', tier, body }),
  changePassword: (tier: Tier, body: { oldPassword: string; newPassword: string }) =>
    call<unknown>(`${tier}/password`, { method: 'PATCH', tier, body }),
  twoFactorPhase0: (tier: Tier) => call<TwoFactorPhase0>(`${tier}/login2fa/phase0`, { method: 'POST', tier }),
  twoFactorPhase1: (tier: Tier, body: { onePassKey: string; code: string }) =>
    call<TwoFactorPhase1>(`${tier}/login2fa/phase1`, { method: 'POST', tier, body }),
  twoFactorPhase2: (tier: Tier, body: { onePassKey: string; code: string }) =>
    call<TwoFactorPhase2>(`${tier}/login2fa/phase2`, { method: 'POST', tier, body }),
  /** Signed in, the call carries the session: the shell shows the branding of the caller's own client. */
  branding: (tier: Tier, signedIn = false) => call<Branding>(`${tier}/logo`, { delayMs: 0, tier: signedIn ? tier : undefined }),
  checkMailToken: (token: string) => call<MailTokenInfo>('token/check', { method: 'POST', body: { token } }),
  registerPassword: (body: { token: string; password: string }) => call<unknown>('register/password', { method: 'POST', body }),
};
