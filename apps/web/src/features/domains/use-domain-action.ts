import { useMutation, type MutationFunction } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { queryClient } from '../../app/query-client';

/** A domain or port action whose success message is one of the domain screens' own (export, detection …). */
export function useDomainAction<V, R>(opts: {
  fn: MutationFunction<R, V>;
  success: 'exportSuccess' | 'detectionSuccess';
  refresh: readonly unknown[][];
  done?: (result: R) => void;
}) {
  const { t } = useTranslation();
  return useMutation({
    mutationFn: opts.fn,
    onSuccess: async (result) => {
      toast.success(t(`domainSettings.${opts.success}`));
      await Promise.all(opts.refresh.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      opts.done?.(result);
    },
  });
}
