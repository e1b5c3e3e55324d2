import { Codes, notificationSchemas as n } from '@edgekeep/contract';
import { z } from 'zod';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../http/errors';
import { decrypt, encrypt } from '../../lib/crypto';
import { botApiBaseOf } from '../system-settings/service';
import { BotApiError, getMe, getUpdates, sendMessage } from './bot-api';
import { findBot, findPreferences, saveBot, savePreferences, updateBot } from './repo';

type Bot = NonNullable<Awaited<ReturnType<typeof findBot>>>;

const botAnswer = (bot: Bot | undefined) => ({
  enabled: bot?.enabled === 1,
  tokenSet: !!bot?.token_sealed,
  registerCommand: bot?.register_command ?? '',
  registered: !!bot?.chat_id,
  updatedAt: bot?.updated_at ?? null,
});

export const getBotSetting = async (deps: AppDeps, accountId: number) => botAnswer(await findBot(deps.db, accountId));

/** Stores the channel; a new token or register command forgets the registered chat, which must register again. */
export async function putBotSetting(deps: AppDeps, accountId: number, body: z.infer<typeof n.botSettingBody>) {
  if (body.token && !n.BOT_TOKEN.test(body.token)) throw new ApiError(Codes.IllegalChatBotToken, { extra: 'the token is not <bot id>:<secret>' });
  const old = await findBot(deps.db, accountId);
  const tokenSealed = body.token === undefined ? (old?.token_sealed ?? null) : body.token === '' ? null : encrypt(deps.secrets.dataKey, body.token);
  if (body.enabled && !tokenSealed) throw new ApiError(Codes.IllegalChatBotToken, { extra: 'a bot token is required' });
  const sameChat = old && body.token === undefined && old.register_command === body.registerCommand;
  await saveBot(deps.db, accountId, {
    enabled: body.enabled ? 1 : 0,
    token_sealed: tokenSealed,
    register_command: body.registerCommand,
    chat_id: sameChat ? old.chat_id : null,
  });
  if (!sameChat) await updateBot(deps.db, accountId, { update_offset: 0 });
  return getBotSetting(deps, accountId);
}

/**
 * The chat to write to: the one registered, else the newest chat whose message to the bot is the register
 * command (read from the bot's updates and remembered). Null while no chat has sent it.
 */
export async function chatOf(deps: AppDeps, bot: Bot, base: string, token: string) {
  if (bot.chat_id) return bot.chat_id;
  const updates = await getUpdates(base, token, Number(bot.update_offset));
  if (!updates.length) return null;
  const match = updates.filter((u) => u.message?.text?.trim() === bot.register_command && u.message.chat?.id !== undefined).at(-1);
  const chatId = match ? String(match.message!.chat!.id) : null;
  await updateBot(deps.db, bot.account_id, { update_offset: Math.max(...updates.map((u) => u.update_id)) + 1, ...(chatId ? { chat_id: chatId } : {}) });
  return chatId;
}

export const tokenOf = (deps: AppDeps, bot: Bot) => (bot.token_sealed ? decrypt(deps.secrets.dataKey, bot.token_sealed) : null);

/** A test message to the registered chat: 101021 when the API refuses the token, 101007 when it cannot be reached. */
export async function sendTestMessage(deps: AppDeps, accountId: number) {
  const bot = await findBot(deps.db, accountId);
  const token = bot && tokenOf(deps, bot);
  if (!bot || !token) throw new ApiError(Codes.IllegalChatBotToken, { extra: 'no bot token is set' });
  const base = await botApiBaseOf(deps, accountId);
  try {
    await getMe(base, token);
    const chat = await chatOf(deps, bot, base, token);
    if (!chat) {
      throw new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field: 'registerCommand', message: `send ${bot.register_command} to the bot first` }] } });
    }
    await sendMessage(base, token, chat, 'EdgeKeep: this test message shows that notices reach this chat.');
  } catch (err) {
    if (!(err instanceof BotApiError)) throw err;
    throw new ApiError(err.badToken ? Codes.IllegalChatBotToken : Codes.ProxyConnection, { extra: err.message });
  }
  return { sent: true as const };
}

export async function getPreferences(deps: AppDeps, accountId: number) {
  const row = await findPreferences(deps.db, accountId);
  const events = row ? z.array(z.enum(n.NOTIFY_EVENTS)).safeParse(JSON.parse(row.events)) : undefined;
  if (!row || !events?.success) return { email: true, bot: true, events: [...n.NOTIFY_EVENTS], updatedAt: null };
  return { email: row.email === 1, bot: row.bot === 1, events: events.data, updatedAt: row.updated_at };
}

export async function putPreferences(deps: AppDeps, accountId: number, body: z.infer<typeof n.notifyPreferences>) {
  const updatedAt = await savePreferences(deps.db, accountId, { email: body.email ? 1 : 0, bot: body.bot ? 1 : 0, events: JSON.stringify(body.events) });
  return { ...body, updatedAt };
}
