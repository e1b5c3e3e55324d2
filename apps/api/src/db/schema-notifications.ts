import type { Generated } from 'kysely';
import type { Flag } from './schema';

export type NotificationTables = {
  system_settings: SystemSettingTable;
  notify_bots: NotifyBotTable;
  notify_preferences: NotifyPreferenceTable;
  notify_queue: NotifyQueueTable;
  notify_watch: NotifyWatchTable;
};

/** One client-wide setting: `value` is JSON of its contract schema (secrets in it sealed with the data key). */
export type SystemSettingTable = { owner_id: number; name: string; value: string; updated_at: string };

export type NotifyBotTable = {
  account_id: number;
  enabled: Flag;
  /** The bot token, encrypted with the platform's data key. */
  token_sealed: string | null;
  register_command: string;
  /** The chat that sent the register command; null until one has. */
  chat_id: string | null;
  /** The next update id to ask the bot API for (a bigint: PostgreSQL answers it as text). */
  update_offset: Generated<number | string>;
  updated_at: string;
};

export type NotifyPreferenceTable = { account_id: number; email: Flag; bot: Flag; events: string; updated_at: string };

export type NotifyQueueTable = {
  id: Generated<number>;
  account_id: number;
  kind: string;
  channel: 'email' | 'bot';
  /** JSON: the event's subject and details. */
  payload: string;
  status: Generated<'pending' | 'sent' | 'failed' | 'skipped'>;
  attempts: Generated<number>;
  next_attempt_at: string;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
};

export type NotifyWatchTable = { subject: string; state: string; updated_at: string };
