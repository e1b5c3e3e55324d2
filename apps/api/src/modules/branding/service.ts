import { brandingSchemas as b, Codes, DEFAULT_BRANDING } from '@edgekeep/contract';
import type { z } from 'zod';
import type { Db } from '../../db';
import type { AppDeps } from '../../deps';
import type { Principal } from '../../http/auth';
import { ApiError, notFound } from '../../http/errors';
import { toUrl } from '../../http/route';
import { settingsClientId } from '../client-settings/repo';
import { imageTypeOf } from './image-type';
import * as repo from './repo';

type Form = z.infer<typeof b.brandingForm>;
type Field = b.BrandingField;

const isImage = (f: Field): f is b.BrandingImage => (b.BRANDING_IMAGES as readonly string[]).includes(f);
const imageUrl = (clientId: number, field: b.BrandingImage, etag: string) =>
  `${toUrl(`branding/${clientId}/${field}`)}?v=${etag}`;

/** The client's branding: null where it set nothing and the default shows. */
export async function clientBranding(db: Db, clientId: number): Promise<b.ClientBranding> {
  const texts = await repo.readTexts(db, clientId);
  const images = await repo.imageTags(db, clientId);
  const url = (field: b.BrandingImage) => {
    const row = images.find((i) => i.field === field);
    return row ? imageUrl(clientId, field, row.etag) : null;
  };
  const times = [texts.updatedAt, ...images.map((i) => i.updated_at)].filter((t): t is string => !!t).sort();
  return {
    title: texts.title ?? null,
    copyright: texts.copyright ?? null,
    backgroundImage: url('backgroundImage'),
    favicon: url('favicon'),
    logo: url('logo'),
    sidebarLogo: url('sidebarLogo'),
    sidebarSimpleLogo: url('sidebarSimpleLogo'),
    updatedAt: times.at(-1) ?? null,
  };
}

const isSet = (x: b.ClientBranding) => [x.title, x.copyright, ...b.BRANDING_IMAGES.map((f) => x[f])].some((v) => v !== null);

/**
 * What an area's sign-in screens and shell show: the signed-in caller's client tenant's branding where it set one,
 * else the platform's (the first client's), with the default title and copyright where none is set.
 */
export async function publicBranding(db: Db, tenantId?: number) {
  const tenant = tenantId === undefined ? undefined : await clientBranding(db, tenantId);
  const installation = await repo.installationClientId(db);
  const own = tenant && isSet(tenant) ? tenant : installation === undefined ? undefined : await clientBranding(db, installation);
  const images = Object.fromEntries(b.BRANDING_IMAGES.flatMap((f) => (own?.[f] ? [[f, own[f]]] : [])));
  return { title: own?.title ?? DEFAULT_BRANDING.title, copyright: own?.copyright ?? DEFAULT_BRANDING.copyright, ...images };
}

const badFile = (field: string, message: string) => new ApiError(Codes.Parameter, { extra: { fields: [{ in: 'body', field, message }] } });

/** Each upload must be an image of a type taken, within its size; nothing is stored unless every part passes. */
function checkedImages(form: Form) {
  return b.BRANDING_IMAGES.flatMap((field) => {
    const file = form[field];
    if (!file) return [];
    if (file.data.length === 0) throw badFile(field, 'an empty file');
    if (file.data.length > b.BRANDING_IMAGE_MAX_BYTES[field]) throw badFile(field, `larger than ${b.BRANDING_IMAGE_MAX_BYTES[field]} bytes`);
    const mimeType = imageTypeOf(file.data);
    if (!mimeType) throw badFile(field, `not an image of the types taken (${b.BRANDING_IMAGE_TYPES.join(', ')})`);
    return [{ field, mimeType, data: file.data }];
  });
}

export async function ownBranding(deps: AppDeps, principal: Principal) {
  return clientBranding(deps.db, await settingsClientId(deps, principal));
}

export async function setTexts(deps: AppDeps, principal: Principal, body: { title?: string; copyright?: string }) {
  const clientId = await settingsClientId(deps, principal);
  const { updatedAt: _, ...current } = await repo.readTexts(deps.db, clientId);
  await repo.writeTexts(deps.db, clientId, { ...current, ...body });
  return clientBranding(deps.db, clientId);
}

export async function setFromForm(deps: AppDeps, principal: Principal, form: Form) {
  const clientId = await settingsClientId(deps, principal);
  const images = checkedImages(form);
  await deps.db.transaction().execute(async (tx) => {
    for (const image of images) await repo.writeImage(tx, { clientId, ...image });
    if (form.title !== undefined || form.copyright !== undefined) {
      const { updatedAt: _, ...current } = await repo.readTexts(tx, clientId);
      await repo.writeTexts(tx, clientId, { ...current, ...(form.title !== undefined && { title: form.title }), ...(form.copyright !== undefined && { copyright: form.copyright }) });
    }
  });
  return clientBranding(deps.db, clientId);
}

export async function resetFields(deps: AppDeps, principal: Principal, fields: Field[]) {
  const clientId = await settingsClientId(deps, principal);
  await repo.removeImages(deps.db, clientId, fields.filter(isImage));
  if (fields.includes('title') || fields.includes('copyright')) {
    const { updatedAt: _, ...current } = await repo.readTexts(deps.db, clientId);
    await repo.writeTexts(deps.db, clientId, {
      ...(!fields.includes('title') && current.title !== undefined && { title: current.title }),
      ...(!fields.includes('copyright') && current.copyright !== undefined && { copyright: current.copyright }),
    });
  }
  return clientBranding(deps.db, clientId);
}

export async function brandingImage(db: Db, clientId: number, field: b.BrandingImage) {
  const row = await repo.readImage(db, clientId, field);
  if (!row) throw notFound('image');
  return row;
}
