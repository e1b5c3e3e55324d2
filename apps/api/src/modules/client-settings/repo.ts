import { clientSettingSchemas } from '@edgekeep/contract';
import type { z } from 'zod';
import { now, type Db } from '../../db';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { notFound } from '../../http/errors';
import { findAccount } from '../accounts/repo';
import { tenantRootId } from '../roles/service';

/**
 * The client tenant whose settings the caller reads or writes: a client's root (a sub-client uses its root's),
 * or, for a user, the root of its client. Null for an account of no client (an admin).
 */
export async function settingsClientId(deps: AppDeps, principal: Principal): Promise<number> {
  const actor = await findAccount(deps.db, principal.accountId);
  if (!actor) throw notFound('account');
  if (actor.auth === 'client') return (await tenantRootId(deps, actor)) ?? actor.id;
  const client = actor.client_id === null ? undefined : await findAccount(deps.db, actor.client_id);
  if (!client) throw notFound('client');
  return (await tenantRootId(deps, client)) ?? client.id;
}

/** A named setting of the client, parsed with its schema; the default where none is stored or it no longer parses. */
export async function readSetting<S extends z.ZodType>(db: Db, o: { clientId: number; name: string; schema: S; fallback: z.output<S> }): Promise<z.output<S>> {
  const row = await db.selectFrom('client_settings').select('value').where('client_id', '=', o.clientId).where('name', '=', o.name).executeTakeFirst();
  if (!row) return o.fallback;
  const parsed = o.schema.safeParse(JSON.parse(row.value));
  return parsed.success ? parsed.data : o.fallback;
}

/** Every client's value of a named setting, by client id. */
export async function readSettingOfClients(db: Db, o: { clientIds: number[]; name: string }) {
  if (!o.clientIds.length) return new Map<number, unknown>();
  const rows = await db.selectFrom('client_settings').select(['client_id', 'value']).where('client_id', 'in', o.clientIds).where('name', '=', o.name).execute();
  return new Map(rows.map((r) => [r.client_id, JSON.parse(r.value) as unknown]));
}

export async function writeSetting(db: Db, o: { clientId: number; name: string; value: unknown }) {
  const values = { value: JSON.stringify(o.value), updated_at: now() };
  await db
    .insertInto('client_settings')
    .values({ client_id: o.clientId, name: o.name, ...values })
    .onConflict((oc) => oc.columns(['client_id', 'name']).doUpdateSet(values))
    .execute();
}

/** The zones the client owns: a change of its edge settings gives each a new revision. */
export const zonesOfClient = async (db: Db, clientId: number) =>
  (await db.selectFrom('zones').select('id').where('client_id', '=', clientId).execute()).map((z) => z.id);

export const RATES = 'triggerRates';

export const triggerRatesOf = (db: Db, clientId: number) =>
  readSetting(db, { clientId, name: RATES, schema: clientSettingSchemas.triggerRates, fallback: clientSettingSchemas.DEFAULT_TRIGGER_RATES });

/** The trigger rates a site's firewall forms offer: those of the client tenant the site belongs to. */
export async function triggerRatesOfSite(deps: AppDeps, siteId: number) {
  const site = await deps.db.selectFrom('sites').select('client_id').where('id', '=', siteId).executeTakeFirst();
  const client = site ? await findAccount(deps.db, site.client_id) : undefined;
  if (!client) return clientSettingSchemas.DEFAULT_TRIGGER_RATES;
  return triggerRatesOf(deps.db, (await tenantRootId(deps, client)) ?? client.id);
}
