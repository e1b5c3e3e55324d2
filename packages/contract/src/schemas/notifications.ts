import { z } from 'zod';

/** What raises a notice, and to whom: the node's and monitor's client, the site's user, the signing-in account. */
export const NOTIFY_EVENTS = [
  'node.offline',
  'node.online',
  'monitor.failure',
  'certificate.expiring',
  'certificate.failed',
  'traffic.warning',
  'traffic.limited',
  'login.newAddress',
] as const;
export type NotifyEvent = (typeof NOTIFY_EVENTS)[number];
export const NOTIFY_CHANNELS = ['email', 'bot'] as const;
export type NotifyChannel = (typeof NOTIFY_CHANNELS)[number];

/** A Telegram-style bot token: `<bot id>:<secret>`. */
export const BOT_TOKEN = /^\d{1,20}:[A-Za-z0-9_-]{20,100}$/;
/** The message the account sends its bot so that the bot learns where to write: `/command` and an optional word. */
export const REGISTER_COMMAND = /^\/[A-Za-z0-9_]{1,32}( [A-Za-z0-9_-]{1,64})?$/;

/**
 * The account's chat-bot channel. The token is write-only (absent: keep the stored one); the answer says whether
 * one is set and whether a chat has registered with the register command.
 */
export const botSettingBody = z.object({
  enabled: z.boolean(),
  token: z.string().trim().max(200).optional(),
  registerCommand: z.string().trim().min(1, 'Required Field!').max(100).regex(REGISTER_COMMAND, 'Wrong Fromat!'),
});
export const botSetting = z.object({
  enabled: z.boolean(),
  tokenSet: z.boolean(),
  registerCommand: z.string(),
  registered: z.boolean(),
  updatedAt: z.string().nullable(),
});
export type BotSetting = z.infer<typeof botSetting>;

/** The account's own choices: which channels it wants and which events. */
export const notifyPreferences = z.object({
  email: z.boolean(),
  bot: z.boolean(),
  events: z
    .array(z.enum(NOTIFY_EVENTS))
    .max(NOTIFY_EVENTS.length)
    .transform((list) => NOTIFY_EVENTS.filter((e) => list.includes(e))),
});
export const notifyPreferencesAnswer = z.object({
  email: z.boolean(),
  bot: z.boolean(),
  events: z.array(z.enum(NOTIFY_EVENTS)),
  updatedAt: z.string().nullable(),
});
export const testSent = z.object({ sent: z.literal(true) });
