import { useMutation, type MutationFunction } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { queryClient } from '../../app/query-client';
import type { Messages } from '../../i18n/en-us';

/**
 * A change to a site module: the spec's fixed success message, the lists under `refresh` refreshed, `done`.
 * Custom-header calls pass the 101025 override 10102502 (spec §8) through `overrideCode`.
 */
export function useModuleMutation<V, R>(opts: {
  fn: MutationFunction<R, V>;
  /** The fixed message shown on success; none for calls that only answer something to show. */
  success?: keyof Messages['siteMessages'];
  refresh: readonly (readonly unknown[])[];
  done?: (result: R) => void;
  overrideCode?: number;
}) {
  const { t } = useTranslation();
  return useMutation({
    mutationFn: opts.fn,
    meta: opts.overrideCode ? { overrideCode: opts.overrideCode } : undefined,
    onSuccess: async (result) => {
      if (opts.success) toast.success(t(`siteMessages.${opts.success}`));
      await Promise.all(opts.refresh.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      opts.done?.(result);
    },
  });
}
