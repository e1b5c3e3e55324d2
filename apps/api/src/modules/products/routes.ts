import { siteRoutes as r } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { registerRoute } from '../../http/route';
import * as products from './service';

export function productsRoutes(app: FastifyInstance, deps: AppDeps) {
  registerRoute(app, deps, r.products, async ({ deps, principal, query }) => products.listProducts(deps, principal, query), { kept: true });
  registerRoute(app, deps, r.metaProducts, async ({ deps, principal }) => ({ data: await products.metaProducts(deps, principal) }), { kept: true });
  registerRoute(app, deps, r.createProduct, async ({ principal, body }) => ({ data: await products.createProduct(deps, principal, body) }));
  registerRoute(app, deps, r.updateProduct, async ({ principal, body }) => ({ data: await products.updateProduct(deps, principal, body) }));
  registerRoute(app, deps, r.removeProduct, async ({ principal, body }) => {
    await products.removeProduct(deps, principal, body.id);
    return { data: { ok: true } };
  });
}
