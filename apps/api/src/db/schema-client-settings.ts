import type { Generated } from 'kysely';

export type ClientSettingTables = {
  /** One JSON value per client and name (branding texts, nginx directives, trigger rates). */
  client_settings: { client_id: number; name: string; value: string; updated_at: string };
  branding_images: { client_id: number; field: string; mime_type: string; data: Uint8Array; etag: string; updated_at: string };
  client_error_pages: { id: Generated<number>; client_id: number; status: number; type: string; body: string; created_at: string; updated_at: string };
};
