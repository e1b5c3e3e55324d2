import { describe, expect, it } from 'vitest';
import { domainsClean } from './domain-index';

type D = { name: string; certificateId: number | null };
const list = (...names: string[]): D[] => names.map((name) => ({ name, certificateId: null }));

/** What the check must say, worked out from nothing. */
const truth = (lists: D[][], certificates: Set<number>) => {
  const names = lists.flat().map((d) => d.name);
  return new Set(names).size === names.length && lists.flat().every((d) => d.certificateId === null || certificates.has(d.certificateId));
};

describe('domainsClean', () => {
  const none = new Set<number>();

  it('finds a name twice in a list, in two lists, and one list in two places', () => {
    expect(domainsClean([list('a.test', 'b.test'), list('c.test')], none)).toBe(true);
    expect(domainsClean([list('a.test', 'a.test')], none)).toBe(false);
    expect(domainsClean([list('a.test'), list('b.test', 'a.test')], none)).toBe(false);
    const shared = list('x.test');
    expect(domainsClean([shared, shared], none)).toBe(false);
  });

  it('finds an unknown certificate', () => {
    const withCert = [{ name: 'tls.test', certificateId: 7 }];
    expect(domainsClean([withCert], new Set([7]))).toBe(true);
    expect(domainsClean([withCert], new Set([8]))).toBe(false);
  });

  it('says what a check from nothing says, through states made from the one before', () => {
    let seed = 42;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const fresh = () => list(...Array.from({ length: 1 + random(4) }, () => `d${random(300)}.test`));
    // two zones checked in turns, as an API builds them: each state made from its zone's last
    const zones = [Array.from({ length: 6 }, fresh), Array.from({ length: 6 }, fresh)];
    for (let step = 0; step < 400; step++) {
      const z = step % 2;
      const lists = [...zones[z]];
      const at = random(lists.length + 1);
      if (random(3) === 0 && lists.length > 1) lists.splice(at % lists.length, 1);
      else if (at === lists.length) lists.push(fresh());
      else lists[at] = fresh();
      zones[z] = lists;
      expect(domainsClean(lists, none), `step ${step}`).toBe(truth(lists, none));
    }
  });
});
