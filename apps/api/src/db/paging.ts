import { Codes, type PageQuery } from '@edgekeep/contract';
import type { SelectQueryBuilder } from 'kysely';
import { ApiError } from '../http/errors';
import { toCount } from './index';

export type SortColumns = Record<string, string>;

/**
 * The one way a list is answered: `{ data, total }` for the page asked for. `sortable` maps the API's sortBy
 * names to columns; a name it does not hold is refused with 101003. Ties are broken by `id` so pages never
 * overlap.
 */
export async function paginate<O>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any table of any module: each caller's database and table types differ
  query: SelectQueryBuilder<any, any, O>,
  opts: { page: PageQuery; sortable: SortColumns; defaultSort: { column: string; order: 'asc' | 'desc' }; idColumn?: string },
): Promise<{ data: O[]; total: number }> {
  const { page, pageSize, sortBy, orderBy } = opts.page;
  const column = sortBy === undefined ? opts.defaultSort.column : opts.sortable[sortBy];
  if (!column) {
    throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'query', field: 'sortBy', message: `one of ${Object.keys(opts.sortable).join(', ')}` }] } });
  }
  const order = orderBy === undefined ? opts.defaultSort.order : orderBy.startsWith('asc') ? 'asc' : 'desc';
  const idColumn = opts.idColumn ?? 'id';
  const counted = await query
    .clearSelect()
    .clearOrderBy()
    .select((eb) => eb.fn.countAll().as('total'))
    .executeTakeFirst();
  const data = await query
    .orderBy(column, order)
    .orderBy(idColumn, order)
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  return { data, total: toCount((counted as { total?: number } | undefined)?.total) };
}
