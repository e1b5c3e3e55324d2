import { z } from 'zod';
import * as s from '../schemas/sites';
import { zoneParams } from '../schemas/infra';
import { done, envelope, paged } from '../paging';
import { defineRoute } from '../route';

const tier = 'client' as const;
const meta = envelope(z.array(z.object({ id: z.number(), name: z.string() })));

export const siteRoutes = {
  dnsLines: defineRoute({ id: 'client.dns.lines', method: 'GET', path: 'client/dns/lines', tier, permission: 'lines.view', tag: 'Lines',
    summary: 'The DNS lines a resolution group can answer for', response: envelope(z.array(z.enum(s.DNS_LINES))) }),
  groups: defineRoute({ id: 'client.zone.groups', method: 'GET', path: 'client/zone/{zoneID}/groups', tier, permission: 'lines.view', tag: 'Lines',
    summary: "The zone's resolution groups (lines) with their nodes", params: zoneParams, query: s.groupsQuery, response: paged(s.groupItem) }),
  metaGroups: defineRoute({ id: 'client.zone.metaGroups', method: 'GET', path: 'client/zone/{zoneID}/metaGroups', tier, permission: 'lines.view', tag: 'Lines',
    summary: "Every group of the zone, for pickers", params: zoneParams, response: meta }),
  createGroup: defineRoute({ id: 'client.zone.group.create', method: 'POST', path: 'client/zone/{zoneID}/group', tier, permission: 'lines.edit', tag: 'Lines',
    summary: 'Create a resolution group of nodes of the zone', params: zoneParams, body: s.createGroupBody, response: envelope(s.groupItem) }),
  updateGroup: defineRoute({ id: 'client.zone.group.update', method: 'PUT', path: 'client/zone/{zoneID}/group', tier, permission: 'lines.edit', tag: 'Lines',
    summary: "Change a group's line, priority, DNS flag or nodes", params: zoneParams, body: s.updateGroupBody, response: envelope(s.groupItem) }),
  removeGroup: defineRoute({ id: 'client.zone.group.remove', method: 'DELETE', path: 'client/zone/{zoneID}/group', tier, permission: 'lines.edit', tag: 'Lines',
    summary: 'Remove a group no product uses (203002)', params: zoneParams, body: s.groupRef, response: done }),

  products: defineRoute({ id: 'client.products', method: 'GET', path: 'client/products', tier, permission: 'products.view', tag: 'Products',
    summary: 'Products (plans) sites are made from', query: s.productsQuery, response: paged(s.productItem) }),
  metaProducts: defineRoute({ id: 'client.metaProducts', method: 'GET', path: 'client/metaProducts', tier, permission: 'products.view', tag: 'Products',
    summary: 'Every product, for pickers', response: meta }),
  createProduct: defineRoute({ id: 'client.product.create', method: 'POST', path: 'client/product', tier, permission: 'products.edit', tag: 'Products',
    summary: 'Create a product on a group of a zone', body: s.createProductBody, response: envelope(s.productItem) }),
  updateProduct: defineRoute({ id: 'client.product.update', method: 'PUT', path: 'client/product', tier, permission: 'products.edit', tag: 'Products',
    summary: 'Change a product', body: s.updateProductBody, response: envelope(s.productItem) }),
  removeProduct: defineRoute({ id: 'client.product.remove', method: 'DELETE', path: 'client/product', tier, permission: 'products.edit', tag: 'Products',
    summary: 'Remove a product no site uses (204002)', body: s.groupRef, response: done }),

  sites: defineRoute({ id: 'client.sites', method: 'GET', path: 'client/sites', tier, permission: 'sites.view', tag: 'Sites',
    summary: "Sites of the client's users (status -1 = all, siteName, tags, productID, userID)", query: s.sitesQuery, response: paged(s.siteItem) }),
  metaSites: defineRoute({ id: 'client.metaSites', method: 'GET', path: 'client/metaSites', tier, permission: 'sites.view', tag: 'Sites',
    summary: 'Every site, for pickers', response: meta }),
  createSite: defineRoute({ id: 'client.site.create', method: 'POST', path: 'client/site', tier, permission: 'sites.edit', tag: 'Sites',
    summary: 'Create a site for a user from a product: it gets its CNAME, zone and group from the product', body: s.createSiteBody, response: envelope(s.siteItem) }),
  updateSite: defineRoute({ id: 'client.site.update', method: 'PATCH', path: 'client/site', tier, permission: 'sites.edit', tag: 'Sites',
    summary: "Rename a site or set its tags", body: s.updateSiteBody, response: envelope(s.siteItem) }),
  removeSites: defineRoute({ id: 'client.site.remove', method: 'DELETE', path: 'client/site', tier, permission: 'sites.edit', tag: 'Sites',
    summary: 'Remove sites and everything configured in them', body: s.siteStatusBody.pick({ ids: true }), response: done }),
  siteStatus: defineRoute({ id: 'client.site.status', method: 'PUT', path: 'client/site/status', tier, permission: 'sites.edit', tag: 'Sites',
    summary: 'Pause, resume or lock sites (205002 when the status may not be set)', body: s.siteStatusBody, response: done }),

  removeSiteUsers: defineRoute({ id: 'client.site.users.remove', method: 'DELETE', path: 'client/site/users', tier, permission: 'sites.edit', tag: 'Sites',
    summary: 'Stop sharing sites with users of the client (a site\'s owner cannot be removed: hand the site over instead)', body: s.removeSiteUsersBody, response: done }),

  userSites: defineRoute({ id: 'user.sites', method: 'GET', path: 'user/sites', tier: 'user', permission: 'sites.view', tag: 'Sites',
    summary: 'The signed-in user\'s sites (status -1 = all, siteName, tags, productID)', query: s.sitesQuery.omit({ userID: true }), response: paged(s.siteItem) }),
  userMetaSites: defineRoute({ id: 'user.metaSites', method: 'GET', path: 'user/metaSites', tier: 'user', permission: 'sites.view', tag: 'Sites',
    summary: 'Every site of the user, for pickers', response: meta }),
  userSite: defineRoute({ id: 'user.site', method: 'GET', path: 'user/site/{siteId}', tier: 'user', permission: 'sites.view', tag: 'Sites',
    summary: 'One site of the user', params: s.siteParams, response: envelope(s.siteItem) }),
  userSiteTags: defineRoute({ id: 'user.site.tags', method: 'GET', path: 'user/site/tags', tier: 'user', permission: 'sites.view', tag: 'Sites',
    summary: "Every tag on the user's sites, sorted", response: envelope(z.array(z.string())) }),
  setUserSiteTags: defineRoute({ id: 'user.site.setTags', method: 'PUT', path: 'user/site/{siteId}/tags', tier: 'user', permission: 'sites.edit', tag: 'Sites',
    summary: "Set a site's tags", params: s.siteParams, body: s.siteTagsBody, response: envelope(s.siteItem) }),
  siteUsers: defineRoute({ id: 'user.site.users', method: 'GET', path: 'user/site/users/{siteId}', tier: 'user', permission: 'sites.view', tag: 'Sites',
    summary: 'The sub-users a site is shared with', params: s.siteParams, response: envelope(z.array(s.siteUserItem)) }),
  shareSites: defineRoute({ id: 'user.site.users.share', method: 'PATCH', path: 'user/site/users', tier: 'user', permission: 'sites.edit', tag: 'Sites',
    summary: 'Share sites with sub-users (a sub-user reaches only the sites shared with it)', body: s.shareSitesBody, response: done }),
  unshareSites: defineRoute({ id: 'user.site.users.unshare', method: 'DELETE', path: 'user/site/users', tier: 'user', permission: 'sites.edit', tag: 'Sites',
    summary: 'Stop sharing sites with sub-users', body: s.shareSitesBody, response: done }),
  userProducts: defineRoute({ id: 'user.products', method: 'GET', path: 'user/products', tier: 'user', permission: 'sites.view', tag: 'Sites',
    summary: "The products the user's sites are made from (optionally some productIDs)", query: s.userProductsQuery, response: paged(s.userProductItem) }),
} as const;
