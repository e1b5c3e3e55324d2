import type { z } from 'zod';
import * as s from '../schemas/security';
import { envelope } from '../paging';
import { defineRoute } from '../route';
import { twoTiers, type AnalyticsTier } from './statistics';

const tag = 'Security dashboard';

/** Each call of the security dashboard for a tier; the types each answers are those of schemas/security REPORT_TYPES. */
const security = (tier: AnalyticsTier, scope: string) => {
  const call = <R extends z.ZodType>(group: s.ReportGroup, summary: string, response: R) =>
    defineRoute({ id: `${tier}.security.${group}`, method: 'POST', path: `${tier}/security/${group}`, tier, permission: 'statistics.view', readOnly: true, tag,
      summary: `${summary}, of ${scope} (default six hours in 60-minute buckets)`, body: s.securityBody(group), response: envelope(response) });
  return {
    cards: call('cards', 'Cards: 3 requests, 4 refused requests, 5 source IPs refused, 14 blacklist refusals, 15 WAF refusals', s.securityCards),
    tops: call('tops', 'Tops (10): 14 blacklisted source IPs, 19 most refused domains, 20 most refused source IPs', s.securityTops),
    areaTops: call('areaTops', 'Area tops (30): 11 requests and 21 refusals by country, 12 requests and 22 refusals by city', s.securityTops),
    blacklist: call('blacklist', 'Blacklist: 14 refusals per bucket, 12 refusals per block type, 18 blacklist refusals by country', s.securityReport),
    waf: call('waf', 'Advanced firewall and WAF (20): 13 refusals per bucket, 23 by rule, 24 by domain, 25 by source IP', s.securityReport),
  };
};

export const securityRoutes = twoTiers(security);
