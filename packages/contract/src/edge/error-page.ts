import { z } from 'zod';
import { ERROR_PAGE_STATUSES } from './constants';

export const errorPage = z
  .object({
    status: z.union(ERROR_PAGE_STATUSES.map((s) => z.literal(s))),
    /** content: body is the page; redirect: body is the URL; js: body is a script run in an empty page. */
    type: z.enum(['content', 'redirect', 'js']),
    body: z.string().min(1).max(65_536),
  })
  .refine((p) => p.type !== 'redirect' || /^https?:\/\/[^\s"'$\\{};]+$/.test(p.body), {
    message: 'an http:// or https:// URL',
    path: ['body'],
  });
