import { describe, expect, it } from 'vitest';
import { keptJsonPieces } from './per-object';

const keptJson = (value: unknown) => [...keptJsonPieces(value)].join('');

describe('keptJsonPieces', () => {
  const site = (id: number) => ({ id, name: `s${id}`, domains: [{ id: id * 10, name: `d${id}.test`, certificateId: null, gone: undefined }] });
  const doc = {
    revision: 7,
    etag: undefined,
    structure: { zone: { httpPorts: [80], nested: { deeper: { deepest: [1, { a: undefined }] } } }, sites: [site(1), site(2)] },
    data: { sites: [], pages: { '1': { status: 929, body: '<p>"x"</p>' } }, list: [1, 'two', null, undefined, true] },
    at: new Date(0),
  };

  it('writes what JSON.stringify writes, byte for byte', () => {
    expect(keptJson(doc)).toBe(JSON.stringify(doc));
    expect(keptJson([site(3), 4])).toBe(JSON.stringify([site(3), 4]));
    expect(keptJson('text')).toBe('"text"');
  });

  it('writes a kept entry from its first JSON, and a new entry from its own', () => {
    const kept = site(1);
    const first = { sites: [kept, site(2)] };
    expect(keptJson(first)).toBe(JSON.stringify(first));
    const next = { sites: [kept, { ...site(2), name: 'renamed' }] };
    expect(JSON.parse(keptJson(next))).toEqual(JSON.parse(JSON.stringify(next)));
    expect(keptJson(next)).toContain('"renamed"');
  });
});
