import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The largest form-data body taken: every branding image at its largest, and room for the parts' headers. */
export const FORM_DATA_MAX_BYTES = 6 * 1024 * 1024;

type Part = string | string[] | { filename: string; mimeType: string; size: number; data: Uint8Array };

/**
 * Form-data bodies (multipart/form-data): text parts become strings (a repeated name an array), file parts
 * `{ filename, mimeType, data }`; the route's schema then checks them like any body.
 */
export function installFormData(app: FastifyInstance) {
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: FORM_DATA_MAX_BYTES }, async (req: FastifyRequest, body: Buffer) => {
    const form = await new Response(new Uint8Array(body), { headers: { 'content-type': String(req.headers['content-type']) } }).formData();
    const parts: Record<string, Part> = {};
    for (const [name, value] of form.entries()) {
      if (typeof value !== 'string') {
        const data = new Uint8Array(await value.arrayBuffer());
        // The bytes are left out of enumeration, so that the operation log keeps the file's name, type and size only.
        const file = { filename: value.name, mimeType: value.type, size: data.length };
        parts[name] = Object.defineProperty(file, 'data', { value: data, enumerable: false }) as typeof file & { data: Uint8Array };
        continue;
      }
      const before = parts[name];
      parts[name] = before === undefined ? value : Array.isArray(before) ? [...before, value] : typeof before === 'string' ? [before, value] : value;
    }
    return parts;
  });
}
