import * as s from '../schemas/dns-settings';
import { done, envelope, paged } from '../paging';
import { defineRoute } from '../route';

const tag = 'DNS settings';
const tier = 'client';

export const dnsSettingRoutes = {
  get: defineRoute({ id: 'client.setting.dns', method: 'GET', path: 'client/setting/dns', tier, permission: 'system.view', tag,
    summary: "The client's DNS provider (type, API address, server id, TTL; whether an API key is set, never the key)", response: envelope(s.dnsSetting) }),
  put: defineRoute({ id: 'client.setting.dns.update', method: 'PUT', path: 'client/setting/dns', tier, permission: 'system.edit', tag,
    summary: 'Set the DNS provider: it is connected to first (101006 when it cannot be used), then the site CNAMEs are written to it',
    body: s.dnsSettingBody, response: envelope(s.dnsSetting) }),
  test: defineRoute({ id: 'client.setting.dns.test', method: 'POST', path: 'client/setting/dns/test', tier, permission: 'system.edit', tag, readOnly: true,
    summary: 'Connect to a DNS provider with these settings (the stored API key when none is given); 101006 when it fails',
    body: s.dnsSettingBody, response: envelope(s.dnsTestAnswer) }),
  unprocessed: defineRoute({ id: 'client.setting.dns.unprocessed', method: 'GET', path: 'client/setting/dns/unprocessed', tier, permission: 'system.view', tag,
    summary: 'Changes the provider has not taken yet (total: the unprocessed task size)', query: s.dnsTasksQuery, response: paged(s.dnsTaskItem) }),
  repair: defineRoute({ id: 'client.setting.dns.unprocessed.repair', method: 'PUT', path: 'client/setting/dns/unprocessed', tier, permission: 'system.edit', tag,
    summary: 'Send the unprocessed changes to the provider again now', response: envelope(s.dnsRepairAnswer) }),
  recovery: defineRoute({ id: 'client.setting.dns.recovery', method: 'POST', path: 'client/setting/dns/recovery', tier, permission: 'system.edit', tag,
    summary: "Rewrite every record of the client's sites at the provider (its zones made again where missing)", response: envelope(s.dnsRepairAnswer) }),
  cnames: defineRoute({ id: 'client.setting.dns.cnames', method: 'GET', path: 'client/setting/dns/cnames', tier, permission: 'system.view', tag,
    summary: 'The CNAME domains the provider serves (enabled = not disabled)', query: s.cnamesQuery, response: paged(s.cnameItem) }),
  removeCnames: defineRoute({ id: 'client.setting.dns.cnames.remove', method: 'DELETE', path: 'client/setting/dns/cnames', tier, permission: 'system.edit', tag,
    summary: 'Remove CNAME domains (an enabled one must be disabled first)', body: s.removeCnamesBody, response: done }),
  createCname: defineRoute({ id: 'client.setting.dns.cname.create', method: 'POST', path: 'client/setting/dns/cname', tier, permission: 'system.edit', tag,
    summary: 'Add a CNAME domain (made a zone at the provider)', body: s.createCnameBody, response: envelope(s.cnameItem) }),
  updateCname: defineRoute({ id: 'client.setting.dns.cname.update', method: 'PUT', path: 'client/setting/dns/cname', tier, permission: 'system.edit', tag,
    summary: 'Enable or disable a CNAME domain, or change its memo', body: s.updateCnameBody, response: envelope(s.cnameItem) }),
  cnameMeta: defineRoute({ id: 'client.setting.dns.cname.meta', method: 'GET', path: 'client/setting/dns/cname/meta', tier, permission: 'system.view', tag,
    summary: 'The enabled CNAME domains, for pickers', response: envelope(s.cnameMeta.array()) }),
} as const;
