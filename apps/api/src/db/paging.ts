import { Codes, type PageQuery } from '@edgekeep/contract';
import type { SelectQueryBuilder } from 'kysely';
import { ApiError } from '../http/errors';
import { toCount } from './index';

export type SortColumns = Record<string, string>;

/** Whether a list's query narrows it: any parameter besides paging and sort that holds a value. */
export function filtersOf(query: Partial<PageQuery> & Record<string, unknown>) {
  const { page: _page, pageSize: _pageSize, sortBy: _sortBy, orderBy: _orderBy, ...filters } = query;
  return Object.values(filters).some((v) => v !== undefined && !(Array.isArray(v) && v.length === 0));
}

/** How a list may be sorted: the API's sortBy names mapped to columns, the default, and the tie-breaking id column. */
export type Sorting = { sortable: SortColumns; defaultSort: { column: string; order: 'asc' | 'desc' }; idColumn?: string };

/**
 * The list in the order asked for: a sortBy name `sortable` does not hold is refused with 101003; ties are broken by
 * the id so pages never overlap.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any table of any module: each caller's database and table types differ
export function ordered<Q extends SelectQueryBuilder<any, any, any>>(query: Q, page: Pick<PageQuery, 'sortBy' | 'orderBy'>, opts: Sorting): Q {
  const { sortBy, orderBy } = page;
  const column = sortBy === undefined ? opts.defaultSort.column : opts.sortable[sortBy];
  if (!column) {
    throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'query', field: 'sortBy', message: `one of ${Object.keys(opts.sortable).join(', ')}` }] } });
  }
  const order = orderBy === undefined ? opts.defaultSort.order : orderBy.startsWith('asc') ? 'asc' : 'desc';
  return query.orderBy(column, order).orderBy(opts.idColumn ?? 'id', order) as Q;
}

/**
 * The one way a list is answered: `{ data, total }` for the page asked for, in the order `ordered` gives.
 * `total`: the list's size where the caller knows it without counting (a count the database keeps).
 */
export async function paginate<O>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as ordered's
  query: SelectQueryBuilder<any, any, O>,
  opts: Sorting & { page: PageQuery; total?: number },
): Promise<{ data: O[]; total: number }> {
  const { page, pageSize } = opts.page;
  const sorted = ordered(query, opts.page, opts);
  const total = opts.total ?? (await countOf(query));
  const data = await sorted
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  return { data, total };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as paginate's
async function countOf(query: SelectQueryBuilder<any, any, unknown>) {
  const counted = await query
    .clearSelect()
    .clearOrderBy()
    .select((eb) => eb.fn.countAll().as('total'))
    .executeTakeFirst();
  return toCount((counted as { total?: number } | undefined)?.total);
}
