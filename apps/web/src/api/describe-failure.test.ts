import { describe, expect, it } from 'vitest';
import { describeFailure, type FailureContext } from './describe-failure';
import { ApiFailure, HandledFailure } from './failure';

const t = ((key: string) => `t:${key}`) as FailureContext['t'];
const ctx: FailureContext = { lang: 'en_US', t };
const fail = (code: number | undefined, extra: unknown = null, more: object = {}) =>
  new ApiFailure(400, code === undefined ? undefined : { code, message: `server says ${code}`, extra, ...more }, 'user');

describe('handling by code (spec §8)', () => {
  it.each([101013, 101014, 101015, 101016])('%i on a signed-in call ends the session with the server message', (code) => {
    expect(describeFailure(fail(code), ctx)).toEqual({ kind: 'endSession', text: `server says ${code}` });
  });
  it('101013 on a sign-in form (no session) is just the message', () => {
    const publicCall = new ApiFailure(401, { code: 101013, message: 'server says 101013' }, undefined);
    expect(describeFailure(publicCall, ctx)).toEqual({ kind: 'toast', text: 'Wrong verification code or invalid token' });
  });
  it('101001 passes silently, and so does a failure handled where it happened', () => {
    expect(describeFailure(fail(101001), ctx)).toEqual({ kind: 'silent' });
    expect(describeFailure(new HandledFailure('done'), ctx)).toEqual({ kind: 'silent' });
  });
  it('101018 shows the mapped message in the current language', () => {
    expect(describeFailure(fail(101018), ctx)).toEqual({ kind: 'toast', text: 'Permission denied' });
    expect(describeFailure(fail(101018), { ...ctx, lang: 'zh_TW' })).toEqual({ kind: 'toast', text: '權限不足' });
    expect(describeFailure(fail(101018), { ...ctx, lang: 'zh_CN' })).toEqual({ kind: 'toast', text: '权限不足' });
  });
  it('101031 (sign-in throttled) shows its catalogue message in the three languages', () => {
    const throttled = new ApiFailure(429, { code: 101031, message: 'server says 101031', extra: { retryAfterSeconds: 60 } }, undefined);
    expect(describeFailure(throttled, ctx)).toEqual({ kind: 'toast', text: 'Too many failed attempts, try again later' });
    expect(describeFailure(throttled, { ...ctx, lang: 'zh_TW' })).toEqual({ kind: 'toast', text: '失敗次數過多，請稍後再試' });
    expect(describeFailure(throttled, { ...ctx, lang: 'zh_CN' })).toEqual({ kind: 'toast', text: '失败次数过多，请稍后再试' });
  });
  it("101009 opens the 'multiple error' modal listing each mapped message with its targets", () => {
    const errors = [
      { code: 401001, message: 'dup', targets: ['a.example.com', 'b.example.com'] },
      { code: 999999, message: 'a message of its own' },
    ];
    expect(describeFailure(fail(101009, null, { errors }), ctx)).toEqual({
      kind: 'modal',
      title: 't:error.multipleTitle',
      items: [
        { text: 'Cannot enable duplicate domains', targets: ['a.example.com', 'b.example.com'] },
        { text: 'a message of its own', targets: [] },
      ],
    });
  });
  it('101025 uses the override code when the call gives one', () => {
    expect(describeFailure(fail(101025), ctx)).toEqual({ kind: 'toast', text: 'Duplicated data' });
    expect(describeFailure(fail(101025), { ...ctx, overrideCode: 10102502 })).toEqual({ kind: 'toast', text: 'Duplicate keys are not allowed' });
  });
  it("401003 fills the port parsed from extra, or falls back to the server's message", () => {
    expect(describeFailure(fail(401003, 'site has no port 8443 open'), ctx)).toEqual({ kind: 'toast', text: 'Site has no port 8443 open' });
    expect(describeFailure(fail(401003, { odd: true }), ctx)).toEqual({ kind: 'toast', text: 'server says 401003' });
  });
  it('601001 names 3 simultaneous downloads; 601002 the account maxLogExportTimes', () => {
    expect(describeFailure(fail(601001), ctx)).toEqual({ kind: 'toast', text: 'Simultaneous download limit reached (3 records)' });
    expect(describeFailure(fail(601002), { ...ctx, maxLogExportTimes: 7 })).toEqual({
      kind: 'toast',
      text: 'Daily download limit reached (7 records)',
    });
  });
  it("101003 with extra 'invalid license key' shows the invalid-license-key message", () => {
    expect(describeFailure(fail(101003, 'invalid license key'), ctx)).toEqual({ kind: 'toast', text: 't:error.invalidLicenseKey' });
    expect(describeFailure(fail(101003, { fields: [] }), ctx)).toEqual({ kind: 'toast', text: 'Parameter error' });
  });
  it('an unknown code shows the server message, or the default when there is none', () => {
    expect(describeFailure(fail(777777), ctx)).toEqual({ kind: 'toast', text: 'server says 777777' });
    expect(describeFailure(new ApiFailure(500, { code: 777777, message: '' }, 'user'), ctx)).toEqual({ kind: 'toast', text: 't:error.someError' });
  });
  it("a failure with no code is 'unknown error, try again later'", () => {
    expect(describeFailure(fail(undefined), ctx)).toEqual({ kind: 'toast', text: 't:error.unknown' });
    expect(describeFailure(new TypeError('network'), ctx)).toEqual({ kind: 'toast', text: 't:error.unknown' });
  });
});
