import { z } from 'zod';

/** A JSON column holds text that is not the shape its writes follow. */
export class JsonColumnError extends Error {
  constructor(column: string, why: string) {
    super(`${column} holds a value that does not fit its schema: ${why}`);
    this.name = 'JsonColumnError';
  }
}

/**
 * A JSON column's text read through the schema its writes follow (the contract's where there is one): a value that
 * does not fit fails here, naming the column, rather than travelling on under a cast. Unknown keys are dropped as the
 * schema says; nothing is defaulted that the schema does not default.
 */
export function readJson<S extends z.ZodType>(column: string, schema: S, text: string): z.output<S> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new JsonColumnError(column, 'not JSON');
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new JsonColumnError(column, z.prettifyError(parsed.error));
  return parsed.data;
}

/** Tags, names and permissions: the text columns that hold a list of strings. */
export const stringList = z.array(z.string());
/** Columns that hold a list of ids (domains of a DNS record, commands of a cache task). */
export const idList = z.array(z.number().int());
