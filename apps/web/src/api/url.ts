/** Base of every call: /api/v1, after the API domain when the build sets one (VITE_API_DOMAIN). */
const base = `${(import.meta.env.VITE_API_DOMAIN ?? '').replace(/\/$/, '')}/api/v1`;

export type Query = Record<string, string | number | boolean | undefined | null | (string | number)[]>;

export function apiUrl(path: string, query?: Query) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) value.forEach((v) => params.append(key, String(v)));
    else params.set(key, String(value));
  }
  const qs = params.toString();
  return `${base}/${path}${qs ? `?${qs}` : ''}`;
}

/** The generated API documentation (the apiDoc menu entry). */
export const apiDocsUrl = `${(import.meta.env.VITE_API_DOMAIN ?? '').replace(/\/$/, '')}/api/docs`;
