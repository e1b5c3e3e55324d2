import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: { overrideCode?: number };
    mutationMeta: { overrideCode?: number };
  }
}

type FailureHandler = (err: unknown, overrideCode?: number) => void;
/** What a failed call goes through; the console's root installs the spec's handling by code (handle-failure). */
let onFailure: FailureHandler = () => {};

export const setFailureHandler = (fn: FailureHandler) => {
  onFailure = fn;
};

/** Every failed query and mutation goes through the failure handler. */
export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: (err, query) => onFailure(err, query.meta?.overrideCode) }),
  mutationCache: new MutationCache({ onError: (err, _vars, _ctx, mutation) => onFailure(err, mutation.meta?.overrideCode) }),
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});
