import { z } from 'zod';

/** Spec §3 database backup: how often, at what time (UTC), into which directory, how many copies are kept. */
export const BACKUP_PERIODS = ['daily', 'weekly', 'monthly'] as const;
export const BACKUP_RETENTION = { min: 1, max: 365 } as const;
/** Spec §5: 'Backup path permissions must be correct' — the answer's field message when the path is not writable. */
export const BACKUP_PATH_MESSAGE = 'Backup path permissions must be correct';

export const dbBackupSetting = z.object({
  enabled: z.boolean(),
  period: z.enum(BACKUP_PERIODS),
  /** HH:mm, UTC; weekly backups run on Mondays, monthly ones on the 1st. */
  time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Wrong Fromat!'),
  /** An absolute directory on the API server; created when missing, and it must be writable. */
  path: z.string().min(2).max(256).regex(/^\/[^\0]*$/, 'Wrong Fromat!'),
  retention: z.number().int().min(BACKUP_RETENTION.min).max(BACKUP_RETENTION.max),
});

export const backupFile = z.object({ file: z.string(), bytes: z.number().int().min(0), createdAt: z.string() });

export const dbBackupAnswer = dbBackupSetting.extend({
  lastBackupAt: z.string().nullable(),
  lastStatus: z.enum(['ok', 'failed']).nullable(),
  lastError: z.string().nullable(),
  /** The backups in the path, newest first. */
  backups: z.array(backupFile),
});

export const DB_BACKUP_DEFAULT = { enabled: false, period: 'daily', time: '03:00', path: '/var/backups/edgekeep', retention: 7 } as const;

export type DbBackupSetting = z.infer<typeof dbBackupSetting>;
export type DbBackupAnswer = z.infer<typeof dbBackupAnswer>;
