import { firewallRuleSchemas, l4PortSchemas, permissionKeys, wafAclSchemas, type Tier } from '@edgekeep/contract';
import type { AppDeps } from './deps';
import type { Principal } from './http/auth';
import { findAccountByEmail } from './modules/accounts/repo';
import { createAccount } from './modules/accounts/service';
import { createDomains } from './modules/domains/service';
import { addRules } from './modules/firewall/service';
import { createRule as createFirewallRule } from './modules/firewall/rules-service';
import { createPorts } from './modules/ports/service';
import { addCacheRule } from './modules/site-settings/service';
import { createGroup } from './modules/groups/service';
import { createLicense, issueLicense } from './modules/licenses/service';
import { createNode } from './modules/nodes/service';
import { createProduct } from './modules/products/service';
import { createSite } from './modules/sites/service';
import { assignModule, createModules, createRule } from './modules/waf-acl/service';
import { createZone } from './modules/zones/service';
import { setZoneSetting } from './modules/zones/settings';

export const DEMO_CLIENT = 'demo-client@edgekeep.local';
/** A loopback address the demo traffic sends from, on the demo site's blacklist. */
export const DEMO_ABUSER_IP = '127.0.0.66';
const DEMO_USER = 'demo-user@edgekeep.local';

/** Acting as a demo account from the server itself, with every key of its tier. */
export const demoPrincipal = (accountId: number, tier: Tier): Principal => ({
  accountId,
  tier,
  sessionId: 0,
  sessionKind: 'login',
  proxyAccountId: null,
  isRoot: true,
  permissions: new Set(permissionKeys(tier)),
});

/**
 * DEMO=1: a living system to click through, made once and then left as the operator changes it: a client and
 * its user, a zone with a node on this machine in a line, a product, and a site whose domain is served by the
 * console itself as origin, under a demo license. It grows with each capability.
 */
export async function ensureDemo(deps: AppDeps, password: string) {
  if (await findAccountByEmail(deps.db, 'client', DEMO_CLIENT)) return;
  const client = await createAccount(deps, { auth: 'client', email: DEMO_CLIENT, name: 'demo-client', password, isRoot: true });
  const user = await createAccount(deps, { auth: 'user', email: DEMO_USER, name: 'demo-user', password, isRoot: true, clientId: client.id, createdBy: client.id });
  const license = await createLicense(deps, {
    name: 'demo', days: 3650, siteLimit: 0, nodeLimit: 0, zoneLimit: 0, domainLimit: 0, autoSSLLimit: 0, portLimit: 0, portType: '7+4', nodeMonitorSeconds: 30,
  });
  await issueLicense(deps, { id: license.id, clientID: client.id });
  const c = demoPrincipal(client.id, 'client');
  const zone = await createZone(deps, c, { name: 'demo-zone', regions: 'local', memo: 'made by DEMO=1' });
  // Zone-wide protections to look at: an IP set of documentation addresses, and a block for host scanners.
  await setZoneSetting(deps, c, zone.id, 'ipset', { sets: [{ name: 'scanners', ips: ['192.0.2.0/24', '2001:db8:bad::/48'] }] });
  await setZoneSetting(deps, c, zone.id, 'invalidDomainLimitCount', { count: 120 });
  const node = await createNode(deps, c, { zoneID: zone.id, name: 'local-edge', ip: '127.0.0.1', type: 'edge', virtual: false, role: 'main', portType: 7, bandwidth: 1000, cacheCapacity: 0, memo: 'this machine' });
  const group = await createGroup(deps, c, zone.id, { name: 'default-line', line: 'default', priority: 0, dnsResolve: true, nodeIDs: [node.id] });
  const product = await createProduct(deps, c, {
    name: 'demo-plan', zoneID: zone.id, groupID: group.id, backupGroupID: null, domainLimit: 0, siteLimit: 0, connections: 500, bandwidth: 100,
    trafficPrice: 0, monthlyTrafficGB: 0, exceedAction: 'none', sellType: 'self', lockDomain: false, autoSSLCount: 0, accessLog: true, cnameMode: 'random', expiredAt: null,
  });
  const site = await createSite(deps, c, { name: 'demo-site', productID: product.id, userID: user.id, tags: ['demo'], expiredAt: null });
  const u = demoPrincipal(user.id, 'user');
  const [domain] = await createDomains(deps, u, site.id, {
    domains: ['demo.localhost'],
    protocol: 'http',
    upstreams: [{ host: '127.0.0.1', port: deps.config.port, weight: 1, backup: false, maxFails: 1, failTimeout: 10, enabled: true, hash: '', keepalive: 16 }],
  });
  // Advanced firewall rules on the demo domain: scanners by user agent, and WordPress probes.
  const [acl] = await createModules(deps, u, site.id, [{ name: 'demo-rules', memo: 'made by DEMO=1' }]);
  const rules = [
    { name: 'scanners', priority: 1, conditions: [{ field: 'userAgent', operator: 'contains', value: 'sqlmap|nikto|masscan', regex: true }], action: 'deny' },
    { name: 'wordpress-probes', priority: 2, conditions: [{ field: 'uri', operator: 'contains', value: '^/wp-(login|admin)', regex: true }], action: 'deny' },
  ];
  for (const rule of rules) await createRule(deps, u, site.id, acl.id, wafAclSchemas.ruleInput.parse(rule));
  await assignModule(deps, u, site.id, { domainIDs: [domain.id], moduleID: acl.id });
  // The console's scripts and styles cached at the edge, and one blacklisted address (the demo traffic's abuser).
  await addCacheRule(deps, u, site.id, { type: 'fileTypes', values: ['js', 'css', 'svg'], seconds: 600, mode: 'force' });
  await addRules(deps, u, site.id, 'blacklist', { ips: [DEMO_ABUSER_IP], memo: 'the demo traffic sends from here' });
  // A layer-4 site (a site serves either domains or ports): a port forwarding to the console, which the same address
  // may not reach either (the L4 analysis's drops).
  const l4Site = await createSite(deps, c, { name: 'demo-tcp', productID: product.id, userID: user.id, tags: ['demo'], expiredAt: null });
  const l4Port = deps.config.demoEdge.l4Port;
  await createPorts(deps, u, l4Site.id, l4PortSchemas.createPortsBody.parse({ ports: [{ port: l4Port, upstreams: [{ host: '127.0.0.1', port: deps.config.port }] }] }));
  const l4Rule = firewallRuleSchemas.RULE_KINDS.l4Blacklist.fields.parse({ ip: DEMO_ABUSER_IP, port: l4Port, memo: 'the demo traffic sends from here' });
  await createFirewallRule(deps, u, l4Site.id, 'l4Blacklist', { ...l4Rule, enabled: true });
  process.stdout.write(
    `\n  Demo accounts (password ${password}; sign-in codes appear in the log without SMTP):\n` +
      `    client ${DEMO_CLIENT}  at ${deps.config.publicUrl}/client/login\n` +
      `    user   ${DEMO_USER}  at ${deps.config.publicUrl}/user/login\n` +
      `  Demo zone, node, line, product and sites demo.localhost (with advanced firewall rules) and demo-tcp (layer-4 port ${l4Port}) are set up.\n\n`,
  );
}
