import { z } from 'zod';
import * as s from '../schemas/site-actions';
import { siteItem, siteParams } from '../schemas/sites';
import { done, envelope } from '../paging';
import { defineRoute } from '../route';

const tier = 'client' as const;
const tag = 'Sites';
const action = <B extends z.ZodType>(name: string, method: 'PUT' | 'PATCH', body: B, summary: string) =>
  defineRoute({ id: `client.site.${name.replace('/', '.')}`, method, path: `client/site/${name}`, tier, permission: 'sites.edit', tag, summary, body, response: done });

/** Batch actions of the client on its users' sites (spec §4 site actions). */
export const siteActionRoutes = {
  assignUser: action('users', 'PATCH', s.siteUsersBody, "Hand sites over to another of the client's users"),
  changeProduct: action('product/change', 'PUT', s.productChangeBody, "Move sites to another product: they take its zone and group (204003 over its site limit)"),
  refreshProduct: action('product/refresh', 'PUT', s.siteIdsBody, "Re-derive the sites' group and CNAME domain from their product"),
  limitations: action('limitations', 'PUT', s.limitationsBody, "Narrow the product's limits for the sites"),
  expired: action('expired', 'PUT', s.expiredBody, 'Set when the sites expire; a past time expires them, a later one renews an expired site'),
  forceBackup: action('forceBackup', 'PUT', s.forceBackupBody, "Serve the sites from their product's backup group, or back from their own"),
  setTags: action('tags', 'PUT', s.tagsBody, 'Set the tags of sites'),
  site: defineRoute({ id: 'client.site', method: 'GET', path: 'client/site/{siteId}', tier, permission: 'sites.view', tag,
    summary: "One site of the client's users", params: siteParams, response: envelope(siteItem) }),
  tags: defineRoute({ id: 'client.site.tags', method: 'GET', path: 'client/site/tags', tier, permission: 'sites.view', tag,
    summary: "Every tag on the client's sites, sorted", response: envelope(z.array(z.string())) }),
  clearCache: defineRoute({ id: 'client.site.currentCache', method: 'DELETE', path: 'client/site/currentCache', tier, permission: 'sites.edit', tag,
    summary: 'Empty the edge cache of the sites on every node serving them', body: s.siteIdsBody, response: envelope(s.purgeResult) }),
} as const;
