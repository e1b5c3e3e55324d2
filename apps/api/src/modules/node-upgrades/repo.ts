import { now, type Db } from '../../db';

/** All SQL of node upgrades; callers pass node ids they have checked the caller may see. */
export type UpgradeRow = {
  id: number;
  node_id: number;
  from_version: string | null;
  to_version: string;
  state: string;
  progress: number;
  created_at: string;
  finished_at: string | null;
};

/** Each node's newest upgrade. */
export async function latestUpgrades(db: Db, nodeIds: number[]): Promise<Map<number, UpgradeRow>> {
  if (!nodeIds.length) return new Map();
  const rows = await db
    .selectFrom('node_upgrades')
    .select(['id', 'node_id', 'from_version', 'to_version', 'state', 'progress', 'created_at', 'finished_at'])
    .where('id', 'in', db.selectFrom('node_upgrades').select((eb) => eb.fn.max('id').as('id')).where('node_id', 'in', nodeIds).groupBy('node_id'))
    .execute();
  return new Map(rows.map((r) => [r.node_id, r]));
}

export const logLines = (db: Db, upgradeId: number) =>
  db.selectFrom('node_upgrade_logs').select(['at', 'message', 'progress']).where('upgrade_id', '=', upgradeId).orderBy('id').execute();

/** A new upgrade of a node and the agent command that carries it out. */
export async function queueUpgrade(
  db: Db,
  o: { nodeId: number; fromVersion: string | null; toVersion: string; accountId: number; args: (upgradeId: number) => Record<string, unknown> },
) {
  return db.transaction().execute(async (trx) => {
    const at = now();
    const upgrade = await trx
      .insertInto('node_upgrades')
      .values({ node_id: o.nodeId, from_version: o.fromVersion, to_version: o.toVersion, state: 'updating', progress: 0, created_by: o.accountId, created_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const command = await trx
      .insertInto('node_commands')
      .values({ node_id: o.nodeId, kind: 'upgrade', args: JSON.stringify(o.args(upgrade.id)), status: 'queued', created_by: o.accountId, created_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx.updateTable('node_upgrades').set({ command_id: command.id }).where('id', '=', upgrade.id).execute();
    await trx.insertInto('node_upgrade_logs').values({ upgrade_id: upgrade.id, at, message: `upgrade from ${o.fromVersion ?? 'unknown'} to ${o.toVersion} requested`, progress: 0 }).execute();
    return upgrade.id;
  });
}

/** A step an agent reports for an upgrade of its own node; false when the upgrade is not the node's. */
export async function appendStep(db: Db, o: { nodeId: number; upgradeId: number; message: string; progress?: number; state?: string }) {
  const upgrade = await db.selectFrom('node_upgrades').select(['id', 'state']).where('id', '=', o.upgradeId).where('node_id', '=', o.nodeId).executeTakeFirst();
  if (!upgrade) return false;
  const at = now();
  await db.insertInto('node_upgrade_logs').values({ upgrade_id: upgrade.id, at, message: o.message, progress: o.progress ?? null }).execute();
  const set: { progress?: number; state?: string; finished_at?: string } = {};
  if (o.progress !== undefined) set.progress = o.progress;
  if (o.state && o.state !== 'updating') Object.assign(set, { state: o.state, finished_at: at });
  if (Object.keys(set).length) await db.updateTable('node_upgrades').set(set).where('id', '=', upgrade.id).execute();
  return true;
}

/** The upgrade an agent's command result belongs to, while it is still running. */
export const runningUpgradeOfCommand = (db: Db, nodeId: number, commandId: number) =>
  db.selectFrom('node_upgrades').select('id').where('node_id', '=', nodeId).where('command_id', '=', commandId).where('state', '=', 'updating').executeTakeFirst();

/** Upgrades still running that began before `before`. */
export const staleUpgrades = (db: Db, before: string) =>
  db.selectFrom('node_upgrades').select(['id', 'node_id']).where('state', '=', 'updating').where('created_at', '<', before).execute();
