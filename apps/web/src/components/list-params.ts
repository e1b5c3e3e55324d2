import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE } from '@edgekeep/contract/constants';
import { useSearchParams } from 'react-router';

export type ListQuery = Record<string, string | number>;

const PAGING = ['page', 'pageSize', 'sortBy', 'orderBy'];
/** What a screen keeps in the URL for itself (its tab, the site or module chosen): never a filter of its lists. */
const SCREEN = ['tab', 'site', 'module'];

/**
 * The URL parameters of one list: a scope's own (`scope.page` read as `page`), or, unscoped, the undotted ones
 * that are not the screen's own.
 */
export function ownParams(search: URLSearchParams, scope?: string): [string, string][] {
  const prefix = scope ? `${scope}.` : '';
  return [...search.entries()].flatMap(([k, v]): [string, string][] => {
    if (prefix) return k.startsWith(prefix) ? [[k.slice(prefix.length), v]] : [];
    return k.includes('.') || SCREEN.includes(k) ? [] : [[k, v]];
  });
}

/**
 * A list's paging, sort and filters, kept in the URL (DESIGN convention 5), so a reload, a link or the back
 * button shows the same page. Changing a filter goes back to page 1. A second list on the same screen (in a
 * drawer) passes a scope: its parameters are written `scope.page`, `scope.keyword`, and the unscoped list ignores them.
 */
export function useListParams(scope?: string) {
  const [search, setSearch] = useSearchParams();
  const prefix = scope ? `${scope}.` : '';
  const own = ownParams(search, scope);
  const get = (k: string) => own.find(([name]) => name === k)?.[1];
  const page = Number(get('page') ?? DEFAULT_PAGE) || DEFAULT_PAGE;
  const pageSize = Number(get('pageSize') ?? DEFAULT_PAGE_SIZE) || DEFAULT_PAGE_SIZE;
  const sortBy = get('sortBy');
  const orderBy = get('orderBy') as 'ascend' | 'descend' | undefined;
  const filters = Object.fromEntries(own.filter(([k]) => !PAGING.includes(k)));

  const update = (patch: Record<string, string | number | undefined | null>, { keepPage = false } = {}) =>
    setSearch(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(patch)) {
          if (v === undefined || v === null || v === '') next.delete(prefix + k);
          else next.set(prefix + k, String(v));
        }
        if (!keepPage && !('page' in patch)) next.delete(`${prefix}page`);
        return next;
      },
      { replace: true },
    );

  /** What the list call takes: page, pageSize, sort and every filter. */
  const query: ListQuery = { page, pageSize, ...(sortBy ? { sortBy } : {}), ...(orderBy ? { orderBy } : {}), ...filters };
  return { page, pageSize, sortBy, orderBy, filters, query, update };
}
