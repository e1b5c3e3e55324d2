import { describe, expect, it } from 'vitest';
import { zoneName } from './infra';
import { createMonitorGroupBody } from './monitors';
import { displayName } from './name';

describe('names', () => {
  it('refuse NUL, control and bidirectional characters, keep other scripts', () => {
    const name = displayName(64);
    for (const bad of ['a\u0000b', 'evil\u202etxt.exe', 'x\u2066y', 'tab\there', '\u200f', 'a\u007fb']) expect(name.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    for (const good of ['邊緣節點', 'zone-1', 'Ünïcode name', 'שלום']) expect(name.parse(good)).toBe(good);
    expect(zoneName.safeParse('a\u0000').success).toBe(false);
    expect(createMonitorGroupBody.safeParse({ name: '\u202egroup' }).success).toBe(false);
  });
});
