import type { edge } from '@edgekeep/contract';
import { lines } from './text';

/** Where Debian's modsecurity-crs package puts the OWASP Core Rule Set. */
const CRS_SETUP = '/etc/modsecurity/crs/crs-setup.conf';
const CRS_RULES = '/usr/share/modsecurity-crs/rules/*.conf';
export const MODSECURITY_MODULE = 'ngx_http_modsecurity_module';

export const usesWaf = (state: edge.DesiredState) => state.structure.sites.some((s) => s.domains.some((d) => d.waf));

const rulesFile = (domain: edge.Domain) => `waf/domain-${domain.id}.conf`;

/** The ModSecurity rules of one domain: the engine settings, the CRS at the chosen paranoia level, the exclusions. */
const rules = (waf: edge.WafSetting) =>
  lines(
    `SecRuleEngine ${waf.mode === 'block' ? 'On' : 'DetectionOnly'}`,
    'SecRequestBodyAccess On',
    'SecRequestBodyLimit 13107200',
    'SecRequestBodyNoFilesLimit 131072',
    'SecRequestBodyLimitAction ProcessPartial',
    'SecResponseBodyAccess Off',
    'SecPcreMatchLimit 100000',
    'SecPcreMatchLimitRecursion 100000',
    'SecAuditEngine Off',
    'SecArgumentSeparator &',
    'SecCookieFormat 0',
    `Include ${CRS_SETUP}`,
    `SecAction "id:900000,phase:1,nolog,pass,t:none,setvar:tx.paranoia_level=${waf.paranoia}"`,
    `Include ${CRS_RULES}`,
    ...waf.excludedRules.map((id) => `SecRuleRemoveById ${id}`),
  ) + '\n';

export const wafFiles = ({ site }: { site: edge.SiteStructure }): Record<string, string> =>
  Object.fromEntries(site.domains.flatMap((d) => (d.waf ? [[rulesFile(d), rules(d.waf)]] : [])));

export const wafDirectives = ({ domain, dir }: { domain: edge.Domain; dir: string }) =>
  domain.waf ? lines('modsecurity on;', `modsecurity_rules_file ${dir}/${rulesFile(domain)};`) : '';
