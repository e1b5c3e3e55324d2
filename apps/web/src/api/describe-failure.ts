import { Codes, messageOf } from '@edgekeep/contract/errors';
import type { Language } from '@edgekeep/contract/constants';
import type { Messages } from '../i18n/en-us';
import { ApiFailure, HandledFailure } from './failure';

/** What the console does with a failed call (spec §8, "Handling by code"). */
export type FailureAction =
  | { kind: 'silent' }
  | { kind: 'toast'; text: string }
  | { kind: 'endSession'; text: string }
  | { kind: 'modal'; title: string; items: { text: string; targets: string[] }[] };

export type FailureContext = {
  lang: Language;
  t: (key: `error.${keyof Messages['error']}`) => string;
  /** The signed-in account's maxLogExportTimes, for 601002. */
  maxLogExportTimes?: number;
  /** A call's own code for 101025 (custom headers pass 10102502). */
  overrideCode?: number;
};

const SESSION_CODES: number[] = [Codes.WrongCode, Codes.TokenExpired, Codes.RevokeTokenFailed, Codes.RefreshTokenFailed];
const CONCURRENT_EXPORTS = 3;

/** The first number in 401003's extra text ("... port 8443 ..."). */
const portIn = (extra: unknown) => (typeof extra === 'string' ? /\d+/.exec(extra)?.[0] : undefined);

export function describeFailure(err: unknown, ctx: FailureContext): FailureAction {
  if (err instanceof HandledFailure) return { kind: 'silent' };
  if (!(err instanceof ApiFailure) || err.code === undefined) return { kind: 'toast', text: ctx.t('error.unknown') };
  const { code } = err;
  const mapped = (c: number, num?: string | number) => messageOf(c, ctx.lang, num);
  const serverText = err.message || ctx.t('error.someError');
  if (code === Codes.OK) return { kind: 'silent' };
  // A wrong code on a sign-in form is a wrong code, not a session that ended.
  if (SESSION_CODES.includes(code) && err.tier) return { kind: 'endSession', text: serverText };
  if (code === Codes.MultipleErrors) {
    return {
      kind: 'modal',
      title: ctx.t('error.multipleTitle'),
      items: err.errors.map((e) => ({ text: mapped(e.code) ?? e.message, targets: e.targets ?? [] })),
    };
  }
  if (code === Codes.Duplicated) return { kind: 'toast', text: mapped(ctx.overrideCode ?? code) ?? serverText };
  if (code === Codes.IllegalPortMapping) {
    const port = portIn(err.extra);
    return { kind: 'toast', text: port ? mapped(code, port)! : serverText };
  }
  if (code === Codes.ConcurrentExportLimit) return { kind: 'toast', text: mapped(code, CONCURRENT_EXPORTS)! };
  if (code === Codes.DailyExportLimit) {
    return { kind: 'toast', text: ctx.maxLogExportTimes === undefined ? serverText : mapped(code, ctx.maxLogExportTimes)! };
  }
  if (code === Codes.Parameter && err.extra === 'invalid license key') return { kind: 'toast', text: ctx.t('error.invalidLicenseKey') };
  return { kind: 'toast', text: mapped(code) ?? serverText };
}
