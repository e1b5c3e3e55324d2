import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { idList, JsonColumnError, readJson, stringList } from './json-column';

describe('readJson', () => {
  it('answers the value its schema reads, without the keys the schema does not know', () => {
    expect(readJson('t.tags', stringList, '["a","b"]')).toEqual(['a', 'b']);
    expect(readJson('t.cfg', z.object({ scope: z.enum(['all', 'paths']) }), '{"scope":"paths","stray":1}')).toEqual({ scope: 'paths' });
  });

  it('refuses text that is not JSON, naming the column', () => {
    expect(() => readJson('domains.tags', stringList, '[a')).toThrow(new JsonColumnError('domains.tags', 'not JSON'));
  });

  it('refuses a value of another shape, naming the column and what is wrong', () => {
    expect(() => readJson('dns_records.domain_ids', idList, '[1,"2"]')).toThrow(/dns_records\.domain_ids holds a value that does not fit its schema:.*number/s);
    expect(() => readJson('t.cfg', z.object({ scope: z.enum(['all', 'paths']) }), '{"scope":"some"}')).toThrow(/t\.cfg/);
  });
});
