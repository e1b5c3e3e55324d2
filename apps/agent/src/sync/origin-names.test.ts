import { describe, expect, it } from 'vitest';
import { createOriginNames } from './origin-names';

describe('origin names', () => {
  it('looks a name up with the system resolver, as nginx does at load time', async () => {
    const names = createOriginNames();
    expect(await names.learn(['localhost'])).toBe(true);
    expect(names.addresses.get('localhost')).toContain('127.0.0.1');
  });

  it('looks new names up at once and all of them at a refresh, keeps the last addresses of a failed lookup, and forgets unused names', async () => {
    const answers = new Map<string, string[]>([['a.example.net', ['192.0.2.2', '192.0.2.1']]]);
    const asked: string[] = [];
    const names = createOriginNames({
      lookup: async (name) => {
        asked.push(name);
        const answer = answers.get(name);
        if (!answer) throw new Error('ENOTFOUND');
        return answer;
      },
    });
    expect(await names.learn(['a.example.net', 'b.example.net'])).toBe(true);
    expect([...names.addresses]).toEqual([['a.example.net', ['192.0.2.1', '192.0.2.2']]]);
    // a known name is not asked again until a refresh; the same addresses in another order are no change
    expect(await names.learn(['a.example.net'])).toBe(false);
    answers.set('a.example.net', ['192.0.2.1', '192.0.2.2']);
    expect(await names.refresh(['a.example.net'])).toBe(false);
    answers.delete('a.example.net');
    expect(await names.refresh(['a.example.net'])).toBe(false);
    expect(names.addresses.get('a.example.net')).toEqual(['192.0.2.1', '192.0.2.2']);
    answers.set('a.example.net', ['192.0.2.3']);
    expect(await names.refresh(['a.example.net'])).toBe(true);
    expect(names.addresses.get('a.example.net')).toEqual(['192.0.2.3']);
    expect(await names.refresh([])).toBe(false);
    expect(names.addresses.size).toBe(0);
    expect(asked).toEqual(['a.example.net', 'b.example.net', 'a.example.net', 'a.example.net', 'a.example.net']);
  });
});
