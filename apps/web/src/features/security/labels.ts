import type { ParseKeys } from 'i18next';
import { countryName } from '../../lib/country-name';

/** The cards' titles by report type (contract schemas/security REPORT_TYPES.cards). */
export const CARD_LABELS: Record<number, ParseKeys> = {
  3: 'security.card.requests',
  4: 'security.card.refused',
  5: 'security.card.sourceIps',
  14: 'security.card.blacklist',
  15: 'security.card.waf',
};

/** The block types' names (contract BLOCK_TYPES; 0 is every other cause). */
export const BLOCK_TYPE_LABELS: Record<string, ParseKeys> = {
  0: 'security.blockType.other',
  2: 'security.blockType.blacklist',
  3: 'security.blockType.region',
  4: 'security.blockType.antiCC',
  5: 'security.blockType.userAgent',
  8: 'security.blockType.limits',
  10: 'security.blockType.referer',
  11: 'security.blockType.header',
  12: 'security.blockType.waf',
};

/** What a top's keys are, and its title, by call and type. */
export type KeyKind = 'clientIp' | 'domain' | 'country' | 'city' | 'blockType' | 'rule';
export const TOP_TITLES: Record<string, { title: ParseKeys; kind: KeyKind }> = {
  'tops.14': { title: 'security.top.blacklistedIps', kind: 'clientIp' },
  'tops.19': { title: 'security.top.refusedDomains', kind: 'domain' },
  'tops.20': { title: 'security.top.refusedIps', kind: 'clientIp' },
  'areaTops.12': { title: 'security.top.cityRequests', kind: 'city' },
  'areaTops.22': { title: 'security.top.cityRefused', kind: 'city' },
  'blacklist.12': { title: 'security.top.byBlockType', kind: 'blockType' },
  'blacklist.18': { title: 'security.top.blacklistCountries', kind: 'country' },
  'waf.23': { title: 'security.top.wafRules', kind: 'rule' },
  'waf.24': { title: 'security.top.wafDomains', kind: 'domain' },
  'waf.25': { title: 'security.top.wafIps', kind: 'clientIp' },
};

export const KIND_LABELS: Record<KeyKind, ParseKeys> = {
  clientIp: 'security.column.clientIp',
  domain: 'security.column.domain',
  country: 'security.column.country',
  city: 'security.column.city',
  blockType: 'security.column.blockType',
  rule: 'security.column.rule',
};

/** A key as people read it: a country by name, a block type by name, an empty value as '-'. */
export const keyLabel = (kind: KeyKind, key: string, t: (k: ParseKeys) => string) => {
  if (!key) return '-';
  if (kind === 'country') return `${countryName(key)} (${key})`;
  if (kind === 'blockType') return t(BLOCK_TYPE_LABELS[key] ?? 'security.blockType.other');
  return key;
};
