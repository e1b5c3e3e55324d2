import { z } from 'zod';

/** Control characters (NUL among them) and the bidirectional marks, embeddings, overrides and isolates that disguise text. */
// eslint-disable-next-line no-control-regex -- matching control characters is this pattern's purpose
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** The one schema of a name that people give a thing (zone, monitor group, module, site, …). */
export const displayName = (max: number, required = 'Required Field!') =>
  z.string().trim().min(1, required).max(max).refine((v) => !HIDDEN.test(v), 'no control or bidirectional characters');
