import { authRoutes, brandingRoutes as r, TIERS, type Tier } from '@edgekeep/contract';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerDownload, registerRoute } from '../../http/route';
import { authenticate } from '../../http/auth';
import { settingsClientId } from '../client-settings/repo';
import { installFormData } from './form-data';
import { brandingImage, ownBranding, publicBranding, resetFields, setFromForm, setTexts } from './service';

/**
 * The client tenant of a shell that sends its token with the branding call; none on the sign-in screens, for an
 * admin, or for a token that does not hold (the public answer never fails for it).
 */
async function signedInTenant(deps: AppDeps, req: FastifyRequest, tier: Tier) {
  if (tier === 'admin' || !req.headers.authorization) return undefined;
  const principal = await authenticate(deps, req, tier).catch(() => undefined);
  return principal ? settingsClientId(deps, principal).catch(() => undefined) : undefined;
}

/** customizeLogo: the client's branding, and the public answer every area's sign-in screens and shell read. */
export function brandingModule(app: FastifyInstance, deps: AppDeps) {
  installFormData(app);
  for (const tier of TIERS) {
    registerRoute(app, deps, authRoutes.logo[tier], async ({ req }) => ({
      data: { ...(await publicBranding(deps.db, await signedInTenant(deps, req, tier))), l4AttackAnalysis: deps.config.l4AttackAnalysis },
    }));
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
