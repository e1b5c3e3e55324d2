import type { DnsLine } from './queries';

/** The translated name of every DNS line the API answers for. */
export const LINE_KEYS = {
  default: 'dnsLine.default',
  AF: 'dnsLine.AF',
  AN: 'dnsLine.AN',
  AS: 'dnsLine.AS',
  EU: 'dnsLine.EU',
  NA: 'dnsLine.NA',
  OC: 'dnsLine.OC',
  SA: 'dnsLine.SA',
  telecom: 'dnsLine.telecom',
  unicom: 'dnsLine.unicom',
  mobile: 'dnsLine.mobile',
  tietong: 'dnsLine.tietong',
  edu: 'dnsLine.edu',
  cstnet: 'dnsLine.cstnet',
  domestic: 'dnsLine.domestic',
  overseas: 'dnsLine.overseas',
} as const satisfies Record<DnsLine, string>;
