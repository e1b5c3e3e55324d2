import { z } from 'zod';

/** A rule id of the OWASP Core Rule Set (900000 to 999999). */
export const crsRuleId = z.number().int().min(900_000).max(999_999);

/**
 * The managed WAF rule set of a domain: ModSecurity with the OWASP CRS. block refuses a request whose anomaly
 * score crosses the threshold (403); detect only logs. Excluded rules are removed by id.
 */
export const wafSetting = z.object({
  mode: z.enum(['block', 'detect']),
  paranoia: z.number().int().min(1).max(4),
  excludedRules: z
    .array(crsRuleId)
    .max(500)
    .refine((l) => new Set(l).size === l.length, { message: 'duplicate rule id' })
    .default([]),
});
export type WafSetting = z.infer<typeof wafSetting>;

/** The rule groups of the CRS, as the console lists them (GET user/module/wafs/defaultRules). */
export const CRS_GROUPS = [
  { id: 911, name: 'Method enforcement' },
  { id: 913, name: 'Scanner detection' },
  { id: 920, name: 'Protocol enforcement' },
  { id: 921, name: 'Protocol attack' },
  { id: 922, name: 'Multipart attack' },
  { id: 930, name: 'Local file inclusion' },
  { id: 931, name: 'Remote file inclusion' },
  { id: 932, name: 'Remote code execution' },
  { id: 933, name: 'PHP injection' },
  { id: 934, name: 'Node.js injection' },
  { id: 941, name: 'Cross-site scripting' },
  { id: 942, name: 'SQL injection' },
  { id: 943, name: 'Session fixation' },
  { id: 944, name: 'Java attack' },
  { id: 949, name: 'Inbound blocking evaluation' },
] as const;
