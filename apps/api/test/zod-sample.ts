import type { z } from 'zod';

/**
 * Answers the ids to put under a key (`siteId`, `ids`, `nodeIDs`…), or undefined where the key names no id: a single
 * id takes the first, a list takes them all.
 */
export type IdFor = (key: string) => number[] | undefined;

type Opts = { word: string; idFor: IdFor; full: boolean };

type Def = { type: string; [k: string]: any };
const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

const strings = (w: string) => [
  `${w}.tenant${w[0]}.test`,
  w,
  `${w}-1`,
  `/${w}`,
  `http://${w}.tenant${w[0]}.test/${w}`,
  `http://${w}.tenant${w[0]}.test/`,
  '192.0.2.10',
  '2001:db8::1',
  '192.0.2.0/24',
  '2001:db8::/64',
  `${w}@tenant${w[0]}.test`,
  '200',
  '123456',
  `${w}-key-0123456789abcdef`,
  '$remote_addr',
  '2026-01-01T00:00:00Z',
  '2026-01-01T01:00:00Z',
  '2026-01-01',
  '1700000000',
  '8080',
  '10000',
  'US',
  '',
];
const numbers = [1, 80, 10, 60, 100, 3600, 200, 443, 8080, 1024, 10_000, 0, 2026, 5, 1_000_000];

const valid = (s: z.ZodType, v: unknown) => s.safeParse(v).success;
const first = (s: z.ZodType, candidates: unknown[]) => candidates.find((c) => valid(s, c));
const minLength = (d: Def) =>
  Math.max(1, ...(d.checks ?? []).map((c: any) => (c._zod.def.check === 'min_length' ? c._zod.def.minimum : 1)));

function sample(s: z.ZodType, o: Opts, key?: string): unknown {
  const d = defOf(s);
  const id = key === undefined ? undefined : o.idFor(key);
  switch (d.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return sample(d.innerType, o, key);
    case 'lazy':
      return sample(d.getter(), o, key);
    case 'pipe': {
      const inner = sample(defOf(d.in).type === 'transform' ? d.out : d.in, o, key);
      return first(s, [inner, ...strings(o.word), ...numbers]) ?? inner;
    }
    case 'string':
      return id !== undefined && valid(s, String(id[0])) ? String(id[0]) : first(s, strings(o.word));
    case 'number':
      return id?.[0] ?? first(s, numbers);
    case 'boolean':
      return true;
    case 'enum':
      return Object.values(d.entries)[0];
    case 'literal':
      return d.values[0];
    case 'array': {
      if (id !== undefined) return defOf(d.element).type === 'number' ? id : id.map(String);
      const element = sample(d.element, o, key);
      return Array.from({ length: minLength(d) }, (_, i) => (typeof element === 'string' && i > 0 ? `${element}${i}` : element));
    }
    case 'object':
      return objectSample(s, d, o);
    case 'union':
      return first(s, d.options.map((x: z.ZodType) => sample(x, o, key)));
    case 'intersection':
      return { ...(sample(d.left, o) as object), ...(sample(d.right, o) as object) };
    case 'record':
    case 'unknown':
    case 'any':
      return {};
    default:
      return undefined;
  }
}

function objectSample(s: z.ZodType, d: Def, o: Opts) {
  const shape = d.shape as Record<string, z.ZodType>;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(shape)) {
    const optional = field.safeParse(undefined).success;
    if (optional && !o.full && o.idFor(key) === undefined) continue;
    const v = sample(field, o, key);
    if (v !== undefined) out[key] = v;
  }
  // A rule over several fields (an end after its start, a value of the record's type): other candidates for the
  // fields it names, one field at a time.
  const scalars = [...strings(o.word), ...numbers];
  const faultyKeys = () => new Set((s.safeParse(out).error?.issues ?? []).map((i) => i.path[0]).filter((k): k is string => typeof k === 'string' && k in shape));
  for (const key of faultyKeys()) {
    const was = out[key];
    const fixed = [...scalars, ...scalars.map((c) => [c])].some((c) => {
      if (!shape[key].safeParse(c).success) return false;
      out[key] = c;
      return !faultyKeys().has(key);
    });
    if (!fixed) out[key] = was;
  }
  return out;
}

/**
 * A small valid value of a zod schema, or undefined where none is found: required fields only, then every field;
 * strings and numbers are picked from plain candidates that the field accepts; id keys take `idFor`'s id.
 */
export function sampleOf(opts: { schema: z.ZodType; word: string; idFor: IdFor }) {
  for (const full of [false, true]) {
    const v = sample(opts.schema, { ...opts, full });
    if (valid(opts.schema, v)) return v;
  }
  return undefined;
}
