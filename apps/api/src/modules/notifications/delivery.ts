import { notificationSchemas as n } from '@edgekeep/contract';
import { z } from 'zod';
import type { AppDeps } from '../../deps';
import { sendNoticeMail } from '../system-settings/email';
import { botApiBaseOf } from '../system-settings/service';
import { BotApiError, sendMessage } from './bot-api';
import { render } from './messages';
import { claimAttempt, dueNotices, findBot, pruneSettled, settleNotice, type DueNotice } from './repo';
import { chatOf, getPreferences, tokenOf } from './service';

export const MAX_ATTEMPTS = 8;
/** Days a settled notice stays in the queue (to see what was sent and why one failed). */
const KEEP_DAYS = 30;
const BATCH = 100;
/** 30 s after the first failure, doubling, at most an hour. */
export const backoffMs = (attempts: number) => Math.min(30_000 * 2 ** (attempts - 1), 3_600_000);

const payloadSchema = z.object({ subject: z.string(), details: z.record(z.string(), z.union([z.string(), z.number()])) });

class Skip extends Error {}

async function deliver(deps: AppDeps, notice: DueNotice) {
  const kind = z.enum(n.NOTIFY_EVENTS).parse(notice.kind);
  const prefs = await getPreferences(deps, notice.account_id);
  if (!prefs.events.includes(kind) || !prefs[notice.channel]) throw new Skip('not chosen');
  const { title, text } = render(kind, payloadSchema.parse(JSON.parse(notice.payload)));
  if (notice.channel === 'email') return sendNoticeMail(deps, notice.account_id, { to: notice.email, subject: title, text });
  const bot = await findBot(deps.db, notice.account_id);
  const token = bot?.enabled ? tokenOf(deps, bot) : null;
  if (!bot || !token) throw new Skip('no chat bot');
  const base = await botApiBaseOf(deps, notice.account_id);
  const chat = await chatOf(deps, bot, base, token);
  if (!chat) throw new Error(`no chat has sent ${bot.register_command} to the bot yet`);
  await sendMessage(base, token, chat, `${title}\n${text}`);
}

/**
 * Delivers the queued notices that are due: each row once per attempt (a claim guards against other instances),
 * sent or skipped by the account's choices, else retried with backoff until MAX_ATTEMPTS. Answers how many were sent.
 */
export async function deliverDue(deps: AppDeps, at = Date.now()) {
  let sent = 0;
  for (const notice of await dueNotices(deps.db, new Date(at).toISOString(), BATCH)) {
    if (!(await claimAttempt(deps.db, notice.id, notice.attempts))) continue;
    try {
      await deliver(deps, notice);
      await settleNotice(deps.db, notice.id, { status: 'sent' });
      sent++;
    } catch (err) {
      if (err instanceof Skip) {
        await settleNotice(deps.db, notice.id, { status: 'skipped', lastError: err.message });
        continue;
      }
      const attempts = notice.attempts + 1;
      const final = attempts >= MAX_ATTEMPTS || (err instanceof BotApiError && err.badToken);
      const message = (err as Error).message.slice(0, 500);
      deps.log.warn({ notice: notice.id, channel: notice.channel, attempts, err: message }, final ? 'notice not delivered; giving up' : 'notice not delivered; will retry');
      await settleNotice(deps.db, notice.id, {
        status: final ? 'failed' : 'pending',
        lastError: message,
        nextAttemptAt: new Date(at + backoffMs(attempts)).toISOString(),
      });
    }
  }
  await pruneSettled(deps.db, new Date(at - KEEP_DAYS * 86_400_000).toISOString());
  return sent;
}
