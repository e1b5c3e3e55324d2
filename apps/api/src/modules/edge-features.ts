import type { EdgeFeature } from '../agent-gateway/edge-feature';
import { acmeEdge } from './acme/edge-state';
import { certificatesEdge } from './certificates/edge-state';
import { domainSettingsEdge } from './domains/state';
import { errorPagesEdge } from './error-settings/edge-state';
import { firewallEdge } from './firewall/edge-data';
import { nginxSettingsEdge } from './nginx-settings/edge-state';
import { nodeSettingsEdge } from './nodes/edge-state';
import { l4PortsEdge } from './ports/edge-state';
import { siteLimitsEdge } from './site-actions/edge-limits';
import { siteModulesEdge } from './site-modules/edge-state';
import { siteSettingsEdge } from './site-settings/edge-state';
import { systemSettingsEdge } from './system-settings/edge-state';
import { trafficEdge } from './traffic/state';
import { wafAclEdge } from './waf-acl/edge-data';
import { zonesEdge } from './zones/edge-state';

/** Every feature that adds to a node's desired state (agent-gateway/edge-feature.ts), in the order its fields are merged. */
export const EDGE_FEATURES: EdgeFeature[] = [
  zonesEdge,
  systemSettingsEdge,
  nginxSettingsEdge,
  nodeSettingsEdge,
  acmeEdge,
  domainSettingsEdge,
  siteModulesEdge,
  siteSettingsEdge,
  errorPagesEdge,
  l4PortsEdge,
  firewallEdge,
  trafficEdge,
  siteLimitsEdge,
  wafAclEdge,
  certificatesEdge,
];
