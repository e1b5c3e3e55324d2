import { useMutation, type MutationFunction } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { queryClient } from '../../app/query-client';
import type { Messages } from '../../i18n/en-us';

/**
 * A change to a site: on success it shows the spec's fixed message, refreshes the lists under `refresh`
 * and runs `done`. Failures go through the shared handling (query-client).
 */
export function useSiteMutation<V, R>(opts: {
  fn: MutationFunction<R, V>;
  success: keyof Messages['siteMessages'];
  refresh: readonly (readonly unknown[])[];
  done?: (result: R) => void;
}) {
  const { t } = useTranslation();
  return useMutation({
    mutationFn: opts.fn,
    onSuccess: async (result) => {
      toast.success(t(`siteMessages.${opts.success}`));
      await Promise.all(opts.refresh.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      opts.done?.(result);
    },
  });
}
