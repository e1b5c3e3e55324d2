import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps';
import { agentGateway } from '../agent-gateway/routes';
import { accountsRoutes } from './accounts/routes';
import { apiTokensRoutes } from './api-tokens/routes';
import { domainsRoutes } from './domains/routes';
import { firewallRoutesPlugin } from './firewall/routes';
import { groupsRoutes } from './groups/routes';
import { auditRoutes } from './audit/routes';
import { licensesRoutes } from './licenses/routes';
import { registrationRoutes } from './registration/routes';
import { rolesRoutes } from './roles/routes';
import { selfRoutes } from './self/routes';
import { nodesRoutes } from './nodes/routes';
import { productsRoutes } from './products/routes';
import { portsRoutes } from './ports/routes';
import { sessionRoutes } from './session/routes';
import { siteSettingsRoutes } from './site-settings/routes';
import { siteModulesRoutes } from './site-modules/routes';
import { basicAuthRoutesPlugin } from './basic-auth/routes';
import { sitesRoutes } from './sites/routes';
import { trafficRoutes } from './traffic/routes';
import { domainRanksRoutes } from './domain-ranks/routes';
import { announcementsRoutes } from './announcements/routes';
import { siteActionsRoutes } from './site-actions/routes';
import { clientDomainsRoutes } from './client-domains/routes';
import { virtualNodesRoutes } from './virtual-nodes/routes';
import { monitorsRoutes } from './monitors/routes';
import { systemRoutesPlugin } from './system/routes';
import { zonesRoutes } from './zones/routes';
import { wafAclRoutesPlugin } from './waf-acl/routes';
import { anticcRoutesPlugin } from './anticc/routes';
import { resolutionsRoutes } from './resolutions/routes';
import { statisticsModule } from './statistics/routes';
import { networkModule } from './network/routes';
import { securityModule } from './security/routes';
import { logsModule } from './logs/routes';
import { logExportsModule } from './log-exports/routes';
import { dashboardModule } from './dashboard/routes';
import { dnsRoutes } from './dns/routes';
import { systemSettingsRoutes } from './system-settings/routes';
import { notificationsRoutes } from './notifications/routes';
import { dbBackupRoutes } from './db-backup/routes';
import { nodeUpgradesRoutes } from './node-upgrades/routes';
import { brandingModule } from './branding/routes';
import { clientSettingsRoutes } from './client-settings/routes';
import { errorSettingsRoutes } from './error-settings/routes';
import { nginxSettingsRoutes } from './nginx-settings/routes';
import { acmeModule } from './acme/routes';

/** Every resource module; each registers its own routes. */
export const MODULES: ((app: FastifyInstance, deps: AppDeps) => void)[] = [
  auditRoutes,
  systemRoutesPlugin,
  sessionRoutes,
  selfRoutes,
  registrationRoutes,
  accountsRoutes,
  rolesRoutes,
  apiTokensRoutes,
  zonesRoutes,
  nodesRoutes,
  groupsRoutes,
  productsRoutes,
  sitesRoutes,
  domainsRoutes,
  portsRoutes,
  siteSettingsRoutes,
  firewallRoutesPlugin,
  wafAclRoutesPlugin,
  anticcRoutesPlugin,
  (app, deps) => agentGateway(app, deps, { watchSeconds: deps.config.agentWatchSeconds }),
  licensesRoutes,
  trafficRoutes,
  siteActionsRoutes,
  clientDomainsRoutes,
  virtualNodesRoutes,
  monitorsRoutes,
  siteModulesRoutes,
  basicAuthRoutesPlugin,
  domainRanksRoutes,
  announcementsRoutes,
  resolutionsRoutes,
  statisticsModule,
  networkModule,
  securityModule,
  logsModule,
  logExportsModule,
  dashboardModule,
  dnsRoutes,
  systemSettingsRoutes,
  notificationsRoutes,
  dbBackupRoutes,
  nodeUpgradesRoutes,
  brandingModule,
  clientSettingsRoutes,
  errorSettingsRoutes,
  nginxSettingsRoutes,
  acmeModule,
];
