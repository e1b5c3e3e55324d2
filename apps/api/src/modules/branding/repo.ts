import { brandingSchemas as b } from '@edgekeep/contract';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { now, type Db } from '../../db';
import { readSetting, writeSetting } from '../client-settings/repo';

const TEXTS = 'branding';
const texts = z.object({ title: z.string().optional(), copyright: z.string().optional(), updatedAt: z.string().optional() });
export type Texts = z.infer<typeof texts>;

export const readTexts = (db: Db, clientId: number) => readSetting(db, { clientId, name: TEXTS, schema: texts, fallback: {} });
export async function writeTexts(db: Db, clientId: number, value: Texts) {
  if (value.title !== undefined || value.copyright !== undefined) return writeSetting(db, { clientId, name: TEXTS, value: { ...value, updatedAt: now() } });
  await db.deleteFrom('client_settings').where('client_id', '=', clientId).where('name', '=', TEXTS).execute();
}

/** The client's images without their bytes: which are set, and the tag that changes with each upload. */
export const imageTags = (db: Db, clientId: number) =>
  db.selectFrom('branding_images').select(['field', 'etag', 'updated_at']).where('client_id', '=', clientId).execute();

export const readImage = (db: Db, clientId: number, field: b.BrandingImage) =>
  db.selectFrom('branding_images').select(['mime_type', 'data', 'etag']).where('client_id', '=', clientId).where('field', '=', field).executeTakeFirst();

export async function writeImage(db: Db, o: { clientId: number; field: b.BrandingImage; mimeType: string; data: Uint8Array }) {
  const data = Buffer.from(o.data);
  const values = { mime_type: o.mimeType, data, etag: createHash('sha256').update(data).digest('hex').slice(0, 16), updated_at: now() };
  await db
    .insertInto('branding_images')
    .values({ client_id: o.clientId, field: o.field, ...values })
    .onConflict((oc) => oc.columns(['client_id', 'field']).doUpdateSet(values))
    .execute();
}

export const removeImages = (db: Db, clientId: number, fields: b.BrandingImage[]) =>
  fields.length ? db.deleteFrom('branding_images').where('client_id', '=', clientId).where('field', 'in', fields).execute() : undefined;

/**
 * The client whose branding the sign-in screens show before anyone signs in: the first client (by account id)
 * that set one, which on a self-hosted platform is its operator.
 */
export async function installationClientId(db: Db): Promise<number | undefined> {
  const fromTexts = await db.selectFrom('client_settings').select('client_id').where('name', '=', TEXTS).orderBy('client_id').limit(1).executeTakeFirst();
  const fromImages = await db.selectFrom('branding_images').select('client_id').orderBy('client_id').limit(1).executeTakeFirst();
  const ids = [fromTexts?.client_id, fromImages?.client_id].filter((x): x is number => x !== undefined);
  return ids.length ? Math.min(...ids) : undefined;
}
