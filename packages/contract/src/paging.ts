import { z } from 'zod';
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './constants';

/** The query every list takes (spec §9, DESIGN convention 5); filters extend it. */
export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).default(DEFAULT_PAGE),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  sortBy: z.string().max(64).optional(),
  orderBy: z.enum(['asc', 'desc', 'ascend', 'descend']).optional(),
});
export type PageQuery = z.infer<typeof pageQuery>;

/** `{ data }`: the envelope of every successful answer that is not a list. */
export const envelope = <T extends z.ZodType>(data: T) => z.object({ data });
/** `{ data, total }`: the envelope of every list. */
export const paged = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), total: z.number().int().min(0) });
/** The answer of a call whose success carries nothing but itself. */
export const done = envelope(z.object({ ok: z.boolean() }));
