import { useMutation, useQuery } from '@tanstack/react-query';
import { siteRoutes as r } from '@edgekeep/contract/routes/sites';
import type { createProductBody, productItem, productsQuery } from '@edgekeep/contract/schemas/sites';
import type { z } from 'zod';
import { callRoute } from '../../api/route-client';
import { queryClient } from '../../app/query-client';
import type { ListQuery } from '../../components/list-params';

export type Product = z.output<typeof productItem>;
export type ProductBody = z.input<typeof createProductBody>;

export const productKeys = {
  all: ['products'] as const,
  meta: ['metaProducts'] as const,
  groups: (zoneID: number | undefined) => ['metaGroups', zoneID] as const,
};

/** Products (spec §3): the plans a client makes its users' sites from. */
export const fetchProducts = (query: ListQuery) => callRoute(r.products, { query: query as z.input<typeof productsQuery> });
/** Every product, for pickers. */
export const useMetaProducts = (enabled = true) => useQuery({ queryKey: productKeys.meta, queryFn: async () => (await callRoute(r.metaProducts)).data, enabled });
/** The groups of a zone a product can use (fetched once per zone and shared). */
export const useMetaGroups = (zoneID: number | undefined, enabled = true) =>
  useQuery({ queryKey: productKeys.groups(zoneID), queryFn: async () => (await callRoute(r.metaGroups, { params: { zoneID: zoneID! } })).data, enabled: enabled && zoneID !== undefined });

const refresh = () => queryClient.invalidateQueries({ queryKey: productKeys.all });

/** Creates a product, or changes the one whose id is given. */
export const useSaveProduct = (id?: number) =>
  useMutation({
    mutationFn: (body: ProductBody): Promise<unknown> => (id ? callRoute(r.updateProduct, { body: { ...body, id } }) : callRoute(r.createProduct, { body })),
    onSuccess: refresh,
  });
export const useRemoveProduct = (done: () => void) =>
  useMutation({
    mutationFn: (id: number) => callRoute(r.removeProduct, { body: { id } }),
    onSuccess: () => {
      done();
      return refresh();
    },
  });
