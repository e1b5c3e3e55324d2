import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { handleFailure } from './handle-failure';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: { overrideCode?: number };
    mutationMeta: { overrideCode?: number };
  }
}

/** Every failed query and mutation goes through the spec's handling by code. */
export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: (err, query) => handleFailure(err, query.meta?.overrideCode) }),
  mutationCache: new MutationCache({ onError: (err, _vars, _ctx, mutation) => handleFailure(err, mutation.meta?.overrideCode) }),
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});
