import { Codes, systemSettingSchemas as s } from '@edgekeep/contract';
import nodemailer from 'nodemailer';
import { z } from 'zod';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../http/errors';
import { decrypt, encrypt } from '../../lib/crypto';
import type { Mail } from '../../lib/mailer';
import { findSetting, saveSetting } from './repo';
import { settingsOwnerOf } from './owner';

const stored = s.emailSettingBase.extend({ passwordSealed: z.string().nullable() });
type Stored = z.infer<typeof stored>;
const DEFAULT: Stored = { enabled: false, host: '', port: 587, secure: false, username: '', from: '', passwordSealed: null };

async function readStored(deps: AppDeps, ownerId: number) {
  const row = await findSetting(deps.db, ownerId, 'email');
  const parsed = row ? stored.safeParse(JSON.parse(row.value)) : undefined;
  return parsed?.success ? { value: parsed.data, updatedAt: row!.updated_at } : { value: DEFAULT, updatedAt: null };
}

const answer = ({ passwordSealed, ...rest }: Stored, updatedAt: string | null) => ({ ...rest, passwordSet: passwordSealed !== null, updatedAt });

export async function getEmailSetting(deps: AppDeps, ownerId: number) {
  const { value, updatedAt } = await readStored(deps, ownerId);
  return answer(value, updatedAt);
}

export async function putEmailSetting(deps: AppDeps, ownerId: number, body: z.infer<typeof s.emailSettingBody>) {
  const { value: old } = await readStored(deps, ownerId);
  const { password, ...rest } = body;
  const passwordSealed = password === undefined ? old.passwordSealed : password === '' ? null : encrypt(deps.secrets.dataKey, password);
  const value: Stored = { ...rest, passwordSealed };
  return answer(value, await saveSetting(deps.db, ownerId, 'email', value));
}

const transportOf = (deps: AppDeps, v: Stored) =>
  nodemailer.createTransport({
    host: v.host,
    port: v.port,
    secure: v.secure,
    auth: v.username ? { user: v.username, pass: v.passwordSealed ? decrypt(deps.secrets.dataKey, v.passwordSealed) : '' } : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });

async function sendWith(deps: AppDeps, v: Stored, mail: Mail) {
  const transport = transportOf(deps, v);
  try {
    await transport.sendMail({ from: v.from, to: mail.to, subject: mail.subject, text: mail.text });
  } finally {
    transport.close();
  }
}

/** A test mail through the stored server; 101020 when it is not enabled or the server refuses it. */
export async function sendTestMail(deps: AppDeps, ownerId: number, to: string) {
  const { value } = await readStored(deps, ownerId);
  if (!value.enabled) throw new ApiError(Codes.IllegalEmailSettings, { extra: 'the mail server is not enabled' });
  try {
    await sendWith(deps, value, { to, subject: 'EdgeKeep test mail', text: 'This test mail shows that EdgeKeep can send notices through this mail server.' });
  } catch (err) {
    throw new ApiError(Codes.IllegalEmailSettings, { extra: (err as Error).message.slice(0, 300) });
  }
  return { sent: true as const };
}

/** Sends a notice to an account: through its client's mail server when enabled, else through the platform's mail. */
export async function sendNoticeMail(deps: AppDeps, accountId: number, mail: Mail) {
  const owner = await settingsOwnerOf(deps, accountId);
  const own = owner === null ? undefined : (await readStored(deps, owner)).value;
  if (own?.enabled) return sendWith(deps, own, mail);
  return deps.mailer.send(mail);
}
