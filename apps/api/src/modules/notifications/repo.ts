import { notificationSchemas as n } from '@edgekeep/contract';
import type { Updateable } from 'kysely';
import { now, type Db } from '../../db';
import type { NotifyBotTable } from '../../db/schema-notifications';

/** Every query names the account whose channel, choices or notices it reads or writes. */

export async function enqueue(db: Db, p: { accountId: number; kind: string; payload: string; at: string }) {
  await db
    .insertInto('notify_queue')
    .values(n.NOTIFY_CHANNELS.map((channel) => ({ account_id: p.accountId, kind: p.kind, channel, payload: p.payload, next_attempt_at: p.at, created_at: p.at })))
    .execute();
}

export const dueNotices = (db: Db, at: string, limit: number) =>
  db
    .selectFrom('notify_queue')
    .innerJoin('accounts', 'accounts.id', 'notify_queue.account_id')
    .select(['notify_queue.id', 'notify_queue.account_id', 'notify_queue.kind', 'notify_queue.channel', 'notify_queue.payload', 'notify_queue.attempts', 'accounts.email', 'accounts.auth'])
    .where('notify_queue.status', '=', 'pending')
    .where('notify_queue.next_attempt_at', '<=', at)
    .orderBy('notify_queue.id')
    .limit(limit)
    .execute();

export type DueNotice = Awaited<ReturnType<typeof dueNotices>>[number];

/** Marks one attempt's outcome; `claimAttempt` guards against two instances delivering the same row. */
export async function claimAttempt(db: Db, id: number, attempts: number) {
  const r = await db.updateTable('notify_queue').set({ attempts: attempts + 1 }).where('id', '=', id).where('attempts', '=', attempts).where('status', '=', 'pending').executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export const settleNotice = (db: Db, id: number, values: { status: 'pending' | 'sent' | 'failed' | 'skipped'; lastError?: string | null; nextAttemptAt?: string }) =>
  db
    .updateTable('notify_queue')
    .set({
      status: values.status,
      last_error: values.lastError ?? null,
      ...(values.nextAttemptAt ? { next_attempt_at: values.nextAttemptAt } : {}),
      ...(values.status === 'sent' ? { sent_at: now() } : {}),
    })
    .where('id', '=', id)
    .execute();

/** Notices settled (sent, skipped or given up) before `before` are dropped. */
export const pruneSettled = (db: Db, before: string) =>
  db.deleteFrom('notify_queue').where('status', '!=', 'pending').where('created_at', '<', before).execute();

export const findBot = (db: Db, accountId: number) => db.selectFrom('notify_bots').selectAll().where('account_id', '=', accountId).executeTakeFirst();

export async function saveBot(db: Db, accountId: number, values: { enabled: 0 | 1; token_sealed: string | null; register_command: string; chat_id: string | null }) {
  const at = now();
  await db
    .insertInto('notify_bots')
    .values({ account_id: accountId, ...values, updated_at: at })
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ ...values, updated_at: at }))
    .execute();
  return at;
}

export const updateBot = (db: Db, accountId: number, values: Updateable<NotifyBotTable>) =>
  db.updateTable('notify_bots').set(values).where('account_id', '=', accountId).execute();

export const findPreferences = (db: Db, accountId: number) =>
  db.selectFrom('notify_preferences').selectAll().where('account_id', '=', accountId).executeTakeFirst();

export async function savePreferences(db: Db, accountId: number, values: { email: 0 | 1; bot: 0 | 1; events: string }) {
  const at = now();
  await db
    .insertInto('notify_preferences')
    .values({ account_id: accountId, ...values, updated_at: at })
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ ...values, updated_at: at }))
    .execute();
  return at;
}

/** The last states a sweep saw of its subjects (`node:12`, `certificate:3:<end>`), by subject. */
export const watchedStates = async (db: Db, prefix: string) =>
  new Map((await db.selectFrom('notify_watch').select(['subject', 'state']).where('subject', 'like', `${prefix}%`).execute()).map((r) => [r.subject, r.state]));

/**
 * Moves a subject to a state; true only for the one caller that changed it (of instances or runs racing to), so
 * an event raised on true is raised once.
 */
export async function moveWatchedState(db: Db, subject: string, state: string) {
  const at = now();
  const inserted = await db.insertInto('notify_watch').values({ subject, state, updated_at: at }).onConflict((oc) => oc.column('subject').doNothing()).executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return true;
  const moved = await db.updateTable('notify_watch').set({ state, updated_at: at }).where('subject', '=', subject).where('state', '!=', state).executeTakeFirst();
  return Number(moved.numUpdatedRows) === 1;
}

/** Rows written in one statement (three parameters each, far below SQLite's and PostgreSQL's limits). */
const WATCHED_PER_STATEMENT = 500;

/** Sets the subjects' states, several in each statement: a sweep's first look records a state for every node. */
export async function setWatchedStates(db: Db, states: { subject: string; state: string }[]) {
  const at = now();
  for (let i = 0; i < states.length; i += WATCHED_PER_STATEMENT) {
    await db
      .insertInto('notify_watch')
      .values(states.slice(i, i + WATCHED_PER_STATEMENT).map(({ subject, state }) => ({ subject, state, updated_at: at })))
      .onConflict((oc) => oc.column('subject').doUpdateSet((eb) => ({ state: eb.ref('excluded.state'), updated_at: eb.ref('excluded.updated_at') })))
      .execute();
  }
}

/** Nodes a sweep watches for going offline and coming back: enabled, set up, with a report. */
export const watchedNodes = (db: Db) =>
  db
    .selectFrom('nodes')
    .select(['id', 'name', 'ip', 'client_id', 'last_report_at'])
    .where('enabled', '=', 1)
    .where('initialized_at', 'is not', null)
    .where('last_report_at', 'is not', null)
    .execute();

/** Certificates that end before `before`, with the user of their site. */
export const endingCertificates = (db: Db, before: string) =>
  db
    .selectFrom('certificates')
    .innerJoin('sites', 'sites.id', 'certificates.site_id')
    .select(['certificates.id', 'certificates.name', 'certificates.not_after', 'sites.user_id', 'sites.name as site_name'])
    .where('certificates.not_after', '<', before)
    .execute();

/** Whether a sign-in from this address is from one new to an account that has signed in before. */
export async function isNewAddress(db: Db, accountId: number, ip: string) {
  const rows = await db.selectFrom('known_addresses').select('ip').where('account_id', '=', accountId).execute();
  return rows.length > 0 && !rows.some((r) => r.ip === ip);
}
