import * as s from '../schemas/blocked-ips';
import { siteParams } from '../schemas/firewall';
import { envelope, paged } from '../paging';
import { defineRoute } from '../route';
import { z } from 'zod';

/** The blocked-IP screens (user and client blockList) and their calls share the blockList keys. */
const tier = 'user' as const;
const tag = 'Firewall';
const base = 'user/site/{siteId}/firewall/setting/blockIPs';

export const blockedIpRoutes = {
  list: defineRoute({ id: 'user.firewall.blockIPs', method: 'GET', path: base, tier, permission: 'blockList.view', tag,
    summary: "Addresses the site's rules block now, with cause and expiry", params: siteParams, query: s.blockedIpsQuery, response: paged(s.blockedIpItem) }),
  remove: defineRoute({ id: 'user.firewall.blockIPs.remove', method: 'DELETE', path: base, tier, permission: 'blockList.edit', tag,
    summary: 'Unblock addresses on every node of the site, without a reload', params: siteParams, body: s.unblockBody, response: envelope(z.object({ removed: z.number() })) }),
  removeAll: defineRoute({ id: 'user.firewall.blockIPs.removeAll', method: 'DELETE', path: `${base}/all`, tier, permission: 'blockList.edit', tag,
    summary: "Unblock every address the site's rules block", params: siteParams, response: envelope(z.object({ removed: z.number() })) }),
  userList: defineRoute({ id: 'user.blockIPs', method: 'GET', path: 'user/blockIPs', tier, permission: 'blockList.view', tag,
    summary: 'Blocked addresses across the sites the caller reaches', query: s.userBlockedIpsQuery, response: paged(s.blockedIpItem) }),
  userRemove: defineRoute({ id: 'user.blockIPs.remove', method: 'DELETE', path: 'user/blockIPs', tier, permission: 'blockList.edit', tag,
    summary: 'Unblock addresses on several sites', body: s.userUnblockBody, response: envelope(z.object({ removed: z.number() })) }),
  clientList: defineRoute({ id: 'client.blockIPs', method: 'GET', path: 'client/blockIPs', tier: 'client', permission: 'blockList.view', tag,
    summary: "Blocked addresses across the sites of the client's users", query: s.userBlockedIpsQuery, response: paged(s.blockedIpItem) }),
  clientRemove: defineRoute({ id: 'client.blockIPs.remove', method: 'DELETE', path: 'client/blockIPs', tier: 'client', permission: 'blockList.edit', tag,
    summary: "Unblock addresses on sites of the client's users", body: s.userUnblockBody, response: envelope(z.object({ removed: z.number() })) }),
  clientRemoveAll: defineRoute({ id: 'client.blockIPs.removeAll', method: 'DELETE', path: 'client/blockIPs/all', tier: 'client', permission: 'blockList.edit', tag,
    summary: "Unblock every address blocked on the sites of the client's users (or on one site or zone of them)", body: s.clientUnblockAllBody,
    response: envelope(z.object({ removed: z.number() })) }),
} as const;
