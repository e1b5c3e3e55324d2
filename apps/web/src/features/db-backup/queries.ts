import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { dbBackupRoutes } from '@edgekeep/contract/routes/db-backup';
import type { DbBackupSetting } from '@edgekeep/contract/schemas/db-backup';
import { callRoute } from '../../api/route-client';

export const dbBackupKeys = { setting: ['dbBackup', 'setting'] as const };

export const useDbBackup = () => useQuery({ queryKey: dbBackupKeys.setting, queryFn: () => callRoute(dbBackupRoutes.get) });

export function useDbBackupMutations() {
  const queryClient = useQueryClient();
  return {
    save: useMutation({
      mutationFn: (body: DbBackupSetting) => callRoute(dbBackupRoutes.put, { body }),
      onSuccess: (answer) => queryClient.setQueryData(dbBackupKeys.setting, answer),
    }),
    run: useMutation({
      mutationFn: () => callRoute(dbBackupRoutes.run),
      onSettled: () => queryClient.invalidateQueries({ queryKey: dbBackupKeys.setting }),
    }),
  };
}
