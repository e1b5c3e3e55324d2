import { Codes, type RouteDef } from '@edgekeep/contract';
import { isDeepStrictEqual } from 'node:util';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiError } from './errors';

/**
 * The zod types a serializer compiled from their JSON Schema writes as zod's parse would (the fields the contract
 * names, defaults filled in). Anything else (a transform, a pipe, a date, a lazy schema) changes the answer as zod
 * reads it, and such a route's answers are read by zod.
 */
const WRITTEN_AS_PARSED = new Set(['object', 'array', 'string', 'number', 'boolean', 'null', 'literal', 'enum', 'optional', 'nullable', 'default', 'record', 'unknown', 'any', 'union', 'readonly']);

/** JSON Schema keywords a serializer answers by validating each value against branches, or that point elsewhere. */
const BRANCHING = new Set(['anyOf', 'oneOf', 'allOf', 'not', 'if', '$ref']);

const PRIMITIVE = new Set(['string', 'number', 'integer', 'boolean']);

/** A union as the one schema it amounts to: constants of one type as their enum, a primitive or null as a nullable type. */
function unionAsOne(anyOf: Record<string, unknown>[]) {
  if (anyOf.every((b) => Object.keys(b).length === 2 && 'const' in b && b.type === anyOf[0].type)) return { type: anyOf[0].type, enum: anyOf.map((b) => b.const) };
  const [value, nothing] = anyOf[1]?.type === 'null' ? anyOf : [anyOf[1], anyOf[0]];
  if (anyOf.length === 2 && nothing?.type === 'null' && Object.keys(nothing).length === 1 && PRIMITIVE.has(value.type as string)) return { ...value, type: [value.type, 'null'] };
  return undefined;
}

/**
 * The JSON Schema with its unions written as the one schema each amounts to (`unionAsOne`), or undefined when a union
 * of shapes is left: a serializer writes those by trying each branch on each value.
 */
function withoutBranches(s: unknown): unknown {
  if (Array.isArray(s)) {
    const items = s.map(withoutBranches);
    return items.includes(undefined) ? undefined : items;
  }
  if (!s || typeof s !== 'object') return s;
  const { anyOf, ...rest } = s as { anyOf?: Record<string, unknown>[] } & Record<string, unknown>;
  const one = anyOf && unionAsOne(anyOf);
  if (anyOf && !one) return undefined;
  const out: Record<string, unknown> = { ...one };
  for (const [key, value] of Object.entries(rest)) {
    if (BRANCHING.has(key)) return undefined;
    const written = withoutBranches(value);
    if (written === undefined) return undefined;
    out[key] = written;
  }
  return out;
}

type JsonSchema = Record<string, unknown>;
const schemas = new WeakMap<z.ZodType, JsonSchema | null>();

/**
 * The JSON Schema of a response schema, worked out once, that the route's serializer is compiled from (the contract
 * stays the one source of the answer's shape); null when zod must read the answer (see WRITTEN_AS_PARSED), or when the
 * answer is not a JSON object.
 */
export function answerSchemaOf(response: z.ZodType): JsonSchema | null {
  const known = schemas.get(response);
  if (known !== undefined) return known;
  let plain = true;
  let schema: JsonSchema | null = null;
  try {
    const json = z.toJSONSchema(response, {
      io: 'output',
      target: 'draft-7',
      override: ({ zodSchema }) => void (plain &&= WRITTEN_AS_PARSED.has(zodSchema._zod.def.type)),
    });
    // An answer other than an object (a text the handler typed itself) is sent as it is, through zod.
    schema = plain && json.type === 'object' ? ((withoutBranches(json) as JsonSchema | undefined) ?? null) : null;
  } catch {
    // not representable in JSON Schema (a transform, a date): zod reads the answer
  }
  schemas.set(response, schema);
  return schema;
}

/**
 * Under the test runner each answer written by a compiled serializer is also read by zod, and the two must agree: the
 * API's tests check every answer against the contract as they did when zod read each one.
 */
const CHECK_WRITTEN = process.env.VITEST !== undefined;

function mismatch(def: RouteDef, req: FastifyRequest, detail: object): never {
  req.log.error({ route: def.id, ...detail }, 'answer does not match the contract');
  throw new ApiError(Codes.Unknown);
}

/** Zod's reading of an answer: the fields the contract names; an answer that does not match it is the server's fault. */
function parsed(def: RouteDef, req: FastifyRequest, answer: unknown) {
  const out = def.response.safeParse(answer);
  if (!out.success) mismatch(def, req, { issues: out.error.issues });
  return out.data;
}

export const JSON_TYPE = 'application/json; charset=utf-8';

/** The answer as the compiled serializer writes it, checked against zod's reading under the test runner. */
function written(def: RouteDef, ctx: { req: FastifyRequest; reply: FastifyReply }, answer: unknown, schema: JsonSchema) {
  let body: string;
  try {
    body = ctx.reply.compileSerializationSchema(schema)(answer as Record<string, unknown>);
  } catch (err) {
    mismatch(def, ctx.req, { err: (err as Error).message });
  }
  if (CHECK_WRITTEN && !isDeepStrictEqual(JSON.parse(body), JSON.parse(JSON.stringify(parsed(def, ctx.req, answer))))) {
    mismatch(def, ctx.req, { written: body.slice(0, 2000) });
  }
  return body;
}

/**
 * Sends the answer as the response schema writes it: through a serializer Fastify compiled once for the route from the
 * schema (a zod parse of each answer and JSON.stringify cost 2–5× the compiled writer on a page of a list), or through
 * zod where the schema is not plain (see answerSchemaOf). Only the fields the contract names are sent.
 */
export function sendAnswer(def: RouteDef, ctx: { req: FastifyRequest; reply: FastifyReply }, answer: unknown) {
  const schema = answerSchemaOf(def.response);
  if (!schema) return ctx.reply.send(parsed(def, ctx.req, answer));
  return ctx.reply.type(JSON_TYPE).send(written(def, ctx, answer, schema));
}

/** The JSON text `sendAnswer` sends (of an answer that is a JSON object), to be kept and sent again as it is. */
export function answerText(def: RouteDef, ctx: { req: FastifyRequest; reply: FastifyReply }, answer: unknown) {
  const schema = answerSchemaOf(def.response);
  return schema ? written(def, ctx, answer, schema) : JSON.stringify(parsed(def, ctx.req, answer));
}
