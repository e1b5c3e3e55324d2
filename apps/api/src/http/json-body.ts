import { Codes } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors';

/** Deeper than any call of the contract nests; a deeper body is refused before it is parsed. */
export const MAX_JSON_DEPTH = 32;
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** The deepest nesting of arrays and objects in a JSON text, counted without parsing it. */
export function jsonDepth(text: string) {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** JSON bodies: an empty one is no body, a malformed or too deeply nested one is refused with 101003. */
export function installJsonBody(app: FastifyInstance) {
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = body as string;
    if (text === '') return done(null, undefined);
    if (jsonDepth(text) > MAX_JSON_DEPTH) {
      return done(new ApiError(Codes.Parameter, { extra: { reason: `nested deeper than ${MAX_JSON_DEPTH} levels` } }), undefined);
    }
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new ApiError(Codes.Parameter, { extra: { reason: 'malformed JSON' } }), undefined);
    }
  });
}
