import { describe, expect, it } from 'vitest';
import { regexProblem } from './regex-safety';

describe('regex safety checker', () => {
  it.each([
    '^/api/',
    '\\.(php|asp)$',
    '^/(login|register)',
    '/user/\\d+/profile',
    '[a-z]+\\.html',
    '^/static/.*\\.(js|css)$',
    '(ab|cd)+',
    '(?:foo|bar)*baz',
    '(a|b|c)*',
    'x{2,5}',
    '(\\d{1,3}\\.){3}\\d{1,3}',
    '(?i:x)',
    '(?i)^/admin',
    '[\\w.-]+@[\\w.-]+',
    '(?<year>\\d{4})-(?=\\d)',
  ])('accepts %s', (re) => expect(regexProblem(re)).toBeUndefined());

  it.each([
    ['(a+)+', /nested quantifier/],
    ['(a*)*b', /nested quantifier/],
    ['(\\w+\\s?)*$', /nested quantifier/],
    ['((ab)*c)+', /nested quantifier/],
    ['(.*a){20}', /nested quantifier/],
    ['(a|a)*', /overlapping alternatives/],
    ['(a|ab)*c', /overlapping alternatives/],
    ['(\\w|\\d)+$', /overlapping alternatives/],
    ['(.|x)*', /overlapping alternatives/],
    ['([a-z]|[k-q])+', /overlapping alternatives/],
    ['(a|)+', /matches nothing/],
    ['(a', /not a valid regular expression/],
    ['a)', /not a valid regular expression/],
    ['[z-a]', /not a valid regular expression/],
    ['*a', /not a valid regular expression/],
    ['x'.repeat(600), /longer than 512/],
  ])('refuses %s', (re, why) => expect(regexProblem(re)).toMatch(why));
});
