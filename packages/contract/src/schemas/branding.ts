import { z } from 'zod';
import { TEXT_FIELD_MAX } from '../constants';
import { idParam } from './account';

/** Spec §3 branding: the images a client can upload. */
export const BRANDING_IMAGES = ['backgroundImage', 'favicon', 'logo', 'sidebarLogo', 'sidebarSimpleLogo'] as const;
export type BrandingImage = (typeof BRANDING_IMAGES)[number];
export const BRANDING_FIELDS = ['title', 'copyright', ...BRANDING_IMAGES] as const;
export type BrandingField = (typeof BRANDING_FIELDS)[number];

/** Image types taken (checked by their first bytes, not by the name); SVG is refused, as it can carry scripts. */
export const BRANDING_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/x-icon'] as const;
/** Largest upload per image in bytes: the background may be a photo, the others are small. */
export const BRANDING_IMAGE_MAX_BYTES: Record<BrandingImage, number> = {
  backgroundImage: 2 * 1024 * 1024,
  favicon: 256 * 1024,
  logo: 512 * 1024,
  sidebarLogo: 512 * 1024,
  sidebarSimpleLogo: 512 * 1024,
};

/** One file part of a form-data body, as the API reads it. */
export const upload = z.object({
  filename: z.string().max(TEXT_FIELD_MAX),
  mimeType: z.string().max(TEXT_FIELD_MAX),
  data: z.custom<Uint8Array>((v) => v instanceof Uint8Array, 'a file'),
});
export type Upload = z.infer<typeof upload>;

const title = z.string().trim().min(1).max(64);
const copyright = z.string().trim().min(1).max(TEXT_FIELD_MAX);

/** POST client/setting/logos (JSON): the texts. */
export const brandingTexts = z.object({ title: title.optional(), copyright: copyright.optional() });
/** POST or PUT client/setting/logo (form data): texts and images; a part left out keeps what is set. */
export const brandingForm = z.object({
  title: title.optional(),
  copyright: copyright.optional(),
  backgroundImage: upload.optional(),
  favicon: upload.optional(),
  logo: upload.optional(),
  sidebarLogo: upload.optional(),
  sidebarSimpleLogo: upload.optional(),
});
const oneOrMore = z.preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(z.enum(BRANDING_FIELDS)).min(1).max(BRANDING_FIELDS.length));
/** DELETE client/setting/logo (form data or JSON): the fields set back to the default. */
export const brandingReset = z.object({ fields: oneOrMore });

/** The client's own branding as its settings screen shows it: null where the default shows. */
export const clientBranding = z.object({
  title: z.string().nullable(),
  copyright: z.string().nullable(),
  backgroundImage: z.string().nullable(),
  favicon: z.string().nullable(),
  logo: z.string().nullable(),
  sidebarLogo: z.string().nullable(),
  sidebarSimpleLogo: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type ClientBranding = z.infer<typeof clientBranding>;

export const brandingImageParams = z.object({ clientId: idParam, field: z.enum(BRANDING_IMAGES) });
export const brandingImageQuery = z.object({ v: z.string().max(64).optional() });
