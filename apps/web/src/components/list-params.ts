import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE } from '@edgekeep/contract/constants';
import { useSearchParams } from 'react-router';

export type ListQuery = Record<string, string | number>;

const PAGING = ['page', 'pageSize', 'sortBy', 'orderBy'];

/**
 * A list's paging, sort and filters, kept in the URL (DESIGN convention 5), so a reload, a link or the back
 * button shows the same page. Changing a filter goes back to page 1.
 */
export function useListParams() {
  const [search, setSearch] = useSearchParams();
  const page = Number(search.get('page') ?? DEFAULT_PAGE) || DEFAULT_PAGE;
  const pageSize = Number(search.get('pageSize') ?? DEFAULT_PAGE_SIZE) || DEFAULT_PAGE_SIZE;
  const sortBy = search.get('sortBy') ?? undefined;
  const orderBy = (search.get('orderBy') ?? undefined) as 'ascend' | 'descend' | undefined;
  const filters = Object.fromEntries([...search.entries()].filter(([k]) => !PAGING.includes(k)));

  const update = (patch: Record<string, string | number | undefined | null>, { keepPage = false } = {}) =>
    setSearch(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(patch)) {
          if (v === undefined || v === null || v === '') next.delete(k);
          else next.set(k, String(v));
        }
        if (!keepPage && !('page' in patch)) next.delete('page');
        return next;
      },
      { replace: true },
    );

  /** What the list call takes: page, pageSize, sort and every filter. */
  const query: ListQuery = { page, pageSize, ...(sortBy ? { sortBy } : {}), ...(orderBy ? { orderBy } : {}), ...filters };
  return { page, pageSize, sortBy, orderBy, filters, query, update };
}
