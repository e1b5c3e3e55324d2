import { authRoutes, brandingRoutes as r, TIERS } from '@edgekeep/contract';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerDownload, registerRoute } from '../../http/route';
import { installFormData } from './form-data';
import { brandingImage, ownBranding, publicBranding, resetFields, setFromForm, setTexts } from './service';

/** customizeLogo: the client's branding, and the public answer every area's sign-in screens and shell read. */
export function brandingRoutes(app: FastifyInstance, deps: AppDeps) {
  installFormData(app);
  for (const tier of TIERS) {
    registerRoute(app, deps, authRoutes.logo[tier], async () => ({ data: { ...(await publicBranding(deps.db)), l4AttackAnalysis: deps.config.l4AttackAnalysis } }));
  }
  registerRoute(app, deps, r.get, async ({ principal }) => ({ data: await ownBranding(deps, principal) }));
  registerRoute(app, deps, r.setTexts, async ({ principal, body }) => ({ data: await setTexts(deps, principal, body) }));
  registerRoute(app, deps, r.upload, async ({ principal, body }) => ({ data: await setFromForm(deps, principal, body) }));
  registerRoute(app, deps, r.replace, async ({ principal, body }) => ({ data: await setFromForm(deps, principal, body) }));
  registerRoute(app, deps, r.reset, async ({ principal, body }) => ({ data: await resetFields(deps, principal, body.fields) }));
  registerDownload(app, deps, r.image, async ({ reply, params, query }) => {
    const image = await brandingImage(deps.db, params.clientId, params.field);
    const current = query.v === image.etag;
    reply
      .header('content-type', image.mime_type)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'")
      .header('etag', `"${image.etag}"`)
      .header('cache-control', current ? 'public, max-age=31536000, immutable' : 'no-cache');
    return Readable.from([Buffer.from(image.data)]);
  });
}
