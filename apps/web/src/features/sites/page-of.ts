import type { Page } from '../../components/data-table';
import type { ListQuery } from '../../components/list-params';

/** One page of a list the API answers whole (a site's cache rules, a domain's origins). */
export const pageOf = <T>(all: T[], query: ListQuery): Page<T> => {
  const size = Number(query.pageSize);
  const from = (Number(query.page) - 1) * size;
  return { data: all.slice(from, from + size), total: all.length };
};
