import { systemSettingSchemas as s } from '@edgekeep/contract';
import { z } from 'zod';
import type { Db } from '../../db';
import type { AppDeps } from '../../deps';
import { zonesOfClient } from '../client-settings/repo';
import type { Principal } from '../../http/auth';
import { findSetting, saveSetting } from './repo';
import { settingsOwnerOf } from './owner';
import { notFound } from '../../http/errors';

type Values = {
  outgoingURL: { url: string };
  CDNRayLog: { logParts: (typeof s.LOG_PARTS)[number][] };
  accountVerify: z.infer<typeof s.accountVerifySetting>;
  restrictGroupCIDRs: { cidrs: string[] };
};
export type PlainName = keyof Values;
type Plain<V> = { schema: z.ZodType<V>; defaults: (deps: AppDeps) => V };

/** The client-wide settings stored as they are: their stored shape and their value until the client sets one. */
export const PLAIN_SETTINGS: { [N in PlainName]: Plain<Values[N]> } = {
  outgoingURL: { schema: z.object({ url: z.string() }), defaults: () => ({ url: '' }) },
  CDNRayLog: { schema: z.object({ logParts: z.array(z.enum(s.LOG_PARTS)) }), defaults: () => ({ logParts: [...s.DEFAULT_LOG_PARTS] }) },
  accountVerify: {
    schema: s.accountVerifySetting,
    defaults: (deps) => ({
      accessTokenMinutes: Math.max(1, Math.round(deps.config.accessTokenSeconds / 60)),
      refreshTokenDays: Math.max(1, Math.round(deps.config.refreshTokenSeconds / 86_400)),
    }),
  },
  restrictGroupCIDRs: { schema: z.object({ cidrs: z.array(z.string()) }), defaults: () => ({ cidrs: [] }) },
};

export async function ownerOfPrincipal(deps: AppDeps, principal: Principal) {
  const owner = await settingsOwnerOf(deps, principal.accountId);
  if (owner === null) throw notFound('client');
  return owner;
}

/** A stored setting read through its schema; undefined when missing or unreadable. */
export async function storedSetting<N extends PlainName>(db: Db, ownerId: number, name: N) {
  const def: Plain<Values[N]> = PLAIN_SETTINGS[name];
  const row = await findSetting(db, ownerId, name);
  const parsed = row ? def.schema.safeParse(JSON.parse(row.value)) : undefined;
  return row && parsed?.success ? { value: parsed.data, updatedAt: row.updated_at } : undefined;
}

/** A stored setting, or the defaults (updatedAt null) until the client sets one. */
export async function readSetting<N extends PlainName>(deps: AppDeps, ownerId: number, name: N): Promise<Values[N] & { updatedAt: string | null }> {
  const stored = await storedSetting(deps.db, ownerId, name);
  return stored ? { ...stored.value, updatedAt: stored.updatedAt } : { ...PLAIN_SETTINGS[name].defaults(deps), updatedAt: null };
}

/** The settings the edge enforces (see edge-state.ts): storing one reaches the nodes of every zone of the client. */
const EDGE_SETTINGS: PlainName[] = ['CDNRayLog', 'restrictGroupCIDRs'];

export async function writeSetting<N extends PlainName>(deps: AppDeps, ownerId: number, name: N, value: Values[N]) {
  const updatedAt = await saveSetting(deps.db, ownerId, name, value);
  if (EDGE_SETTINGS.includes(name)) await deps.revisions.bump(deps.db, await zonesOfClient(deps.db, ownerId));
  return { ...value, updatedAt };
}

/** Lifetimes of the tokens a new sign-in of this account gets: its client's account verify setting, else the configuration. */
export async function tokenLifetimes(deps: AppDeps, accountId: number) {
  const owner = await settingsOwnerOf(deps, accountId);
  if (owner === null) return { accessSeconds: deps.config.accessTokenSeconds, refreshSeconds: deps.config.refreshTokenSeconds };
  const v = await readSetting(deps, owner, 'accountVerify');
  if (v.updatedAt === null) return { accessSeconds: deps.config.accessTokenSeconds, refreshSeconds: deps.config.refreshTokenSeconds };
  return { accessSeconds: v.accessTokenMinutes * 60, refreshSeconds: v.refreshTokenDays * 86_400 };
}

/** Where chat-bot calls for this account go: its client's outgoing URL, else BOT_API_URL. */
export async function botApiBaseOf(deps: AppDeps, accountId: number) {
  const owner = await settingsOwnerOf(deps, accountId);
  const url = owner === null ? '' : (await readSetting(deps, owner, 'outgoingURL')).url;
  return (url || deps.config.botApiUrl).replace(/\/+$/, '');
}
