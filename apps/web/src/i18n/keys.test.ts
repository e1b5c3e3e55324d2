import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { enUS } from './en-us';
import { zhCN } from './zh-cn';
import { zhTW } from './zh-tw';

const resources = { en_US: enUS, zh_TW: zhTW, zh_CN: zhCN };

const keysOf = (obj: object, prefix = ''): string[] =>
  Object.entries(obj).flatMap(([k, v]) => (typeof v === 'object' ? keysOf(v, `${prefix}${k}.`) : [`${prefix}${k}`]));

const SRC = path.resolve(import.meta.dirname, '..');
const sources = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'i18n' ? [] : sources(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [fs.readFileSync(p, 'utf8')] : [];
  });

/**
 * Keys appear in the code as whole literals (`t('menu.logout')`), as a group and a name (`menu.${entry.label}`
 * with `label: 'logout'`) or as a typed group prefix. A key counts as used when its literal appears, or when
 * its group is used with a template and its last part appears as a literal.
 */
function isUsed(key: string, code: string) {
  if (code.includes(`'${key}'`)) return true;
  const group = key.slice(0, key.lastIndexOf('.'));
  const name = key.slice(key.lastIndexOf('.') + 1);
  return code.includes(`\`${group}.\${`) && new RegExp(`['"\`]${name}['"\`]|\\b${name}:`).test(code);
}

describe('translations', () => {
  const source = keysOf(resources.en_US).sort();
  const code = sources(SRC).join('\n');

  it.each(['zh_TW', 'zh_CN'] as const)('%s has exactly the keys of en_US, none empty', (lang) => {
    expect(keysOf(resources[lang]).sort()).toEqual(source);
    for (const key of source) {
      const value = key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], resources[lang]);
      expect(value, key).not.toBe('');
    }
  });

  it('uses every key somewhere in the console', () => {
    expect(source.filter((key) => !isUsed(key, code))).toEqual([]);
  });

  it('knows every key the console asks for', () => {
    const asked = [...code.matchAll(/\bt\(\s*'([\w.]+)'/g)].map((m) => m[1]);
    expect(asked.length).toBeGreaterThan(20);
    expect(asked.filter((key) => !source.includes(key))).toEqual([]);
  });
});
