import { describe, expect, it } from 'vitest';
import { Codes, ERRORS, isKnownCode, messageOf, statusOf, type ErrorCode } from './errors';

/** Every code of spec §8. */
const SPEC_CODES = [
  4003, 4004, 4005, 101001, 101002, 101003, 101004, 101005, 101006, 101007, 101008, 101009, 101010, 101011, 101012, 101013,
  101014, 101015, 101016, 101017, 101018, 101019, 101020, 101021, 101022, 101023, 101024, 101025, 101029, 101030, 201001,
  201002, 201003, 202001, 202002, 202003, 202004, 202005, 202006, 202008, 203001, 203002, 203003, 203005, 204001, 204002,
  204003, 205001, 205002, 205003, 205004, 205005, 205006, 205007, 206001, 301001, 401001, 401002, 401003, 401004, 401007,
  401008, 601001, 601002, 900001, 10102502,
];

describe('error catalogue', () => {
  it('holds every code of the spec, each once', () => {
    const codes = Object.values(ERRORS).map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of SPEC_CODES) expect(codes, String(code)).toContain(code);
  });

  it('types an error code as one of the catalogue codes', () => {
    const candidates: ErrorCode[] = [
      Codes.Parameter,
      // @ts-expect-error 12345 is no code of the catalogue, so it is no ErrorCode
      12345,
    ];
    expect(candidates.map(isKnownCode)).toEqual([true, false]);
  });

  it('has a message in each of the three languages, with the same placeholders', () => {
    for (const [name, e] of Object.entries(ERRORS)) {
      for (const lang of ['en_US', 'zh_TW', 'zh_CN'] as const) expect(e[lang].trim(), `${name} ${lang}`).not.toBe('');
      const holes = (s: string) => s.match(/\{\w+\}/g) ?? [];
      expect(holes(e.zh_TW), name).toEqual(holes(e.en_US));
      expect(holes(e.zh_CN), name).toEqual(holes(e.en_US));
    }
  });

  it('maps codes to the HTTP statuses of the design', () => {
    for (const code of [101013, 101014, 101015, 101016]) expect(statusOf(code)).toBe(401);
    expect(statusOf(Codes.PermissionDenied)).toBe(403);
    expect(statusOf(Codes.PathInvalid)).toBe(404);
    expect(statusOf(Codes.DuplicateEmail)).toBe(409);
    expect(statusOf(Codes.Duplicated)).toBe(409);
    expect(statusOf(Codes.Parameter)).toBe(400);
    expect(statusOf(Codes.Unknown)).toBe(500);
    expect(statusOf(123)).toBe(500);
  });

  it('fills {num} into the export-limit messages', () => {
    expect(messageOf(601001, 'en_US', 3)).toBe('Simultaneous download limit reached (3 records)');
    expect(messageOf(601002, 'zh_TW', 5)).toContain('5');
    expect(messageOf(999, 'en_US')).toBeUndefined();
  });
});
