import type { Generated } from 'kysely';

export type BackupUpgradeTables = {
  db_backup_settings: DbBackupSettingsTable;
  node_upgrades: NodeUpgradeTable;
  node_upgrade_logs: NodeUpgradeLogTable;
};
export type DbBackupSettingsTable = {
  client_id: number;
  enabled: Generated<number>;
  period: string;
  time: string;
  path: string;
  retention: number;
  last_backup_at: string | null;
  last_status: string | null;
  last_error: string | null;
  updated_at: string;
};
export type NodeUpgradeTable = {
  id: Generated<number>;
  node_id: number;
  command_id: number | null;
  from_version: string | null;
  to_version: string;
  /** updating | failed | complete */
  state: string;
  progress: Generated<number>;
  created_by: number | null;
  created_at: string;
  finished_at: string | null;
};
export type NodeUpgradeLogTable = { id: Generated<number>; upgrade_id: number; at: string; message: string; progress: number | null };
