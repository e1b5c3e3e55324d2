import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as contract from './index';
import { id, idParam } from './schemas/account';

const ID_NAME = /^(id|\w*(Id|ID))$/;

describe('ids', () => {
  it('in a body: a positive integer JSON number only', () => {
    expect(id.parse(2)).toBe(2);
    for (const bad of [[2], ['2'], [[2]], '2', true, 0, -1, 1.5, null, 2 ** 60]) expect(id.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });

  it('in a path or query: digits only', () => {
    expect(idParam.parse('42')).toBe(42);
    for (const bad of ['', '0', '01', ' 1', '1 ', '+1', '-1', '1e2', '0x10', '1.0', 'true', ['1'], 1, '99999999999999999']) {
      expect(idParam.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('every id of every path and query is read from digits only', () => {
    const loose: string[] = [];
    for (const def of contract.routesOf(contract)) {
      for (const [where, schema] of [['params', def.params], ['query', def.query]] as const) {
        if (!schema) continue;
        const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, { type?: string }> };
        for (const [name, prop] of Object.entries(json.properties ?? {})) {
          if (!ID_NAME.test(name)) continue;
          if (schema.safeParse({ ...sample(schema), [name]: '1e0' }).success || prop.type === 'number' || prop.type === 'integer') loose.push(`${def.id} ${where}.${name}`);
        }
      }
    }
    expect(loose).toEqual([]);
  });
});

/** Digit strings for every path parameter, so one field at a time can be tried. */
function sample(schema: z.ZodType) {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { required?: string[] };
  return Object.fromEntries((json.required ?? []).map((k) => [k, '1']));
}
