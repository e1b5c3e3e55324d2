import type { brandingSchemas } from '@edgekeep/contract';

type ImageType = (typeof brandingSchemas.BRANDING_IMAGE_TYPES)[number];

const startsWith = (data: Uint8Array, bytes: number[], at = 0) => bytes.every((b, i) => data[at + i] === b);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/** The image type the bytes really are (by their signature), whatever the upload's name or stated type say. */
export function imageTypeOf(data: Uint8Array): ImageType | undefined {
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(data, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(data, ascii('GIF87a')) || startsWith(data, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(data, ascii('RIFF')) && startsWith(data, ascii('WEBP'), 8)) return 'image/webp';
  if (startsWith(data, [0x00, 0x00, 0x01, 0x00]) && data.length > 6) return 'image/x-icon';
  return undefined;
}
