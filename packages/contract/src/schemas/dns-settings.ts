import { z } from 'zod';
import { TEXT_FIELD_MAX } from '../constants';
import { pageQuery } from '../paging';
import { id } from './account';
import { ids } from './accounts';
import { domainName } from './domains';

/** The DNS providers the platform drives; PowerDNS (its HTTP API) is the first. */
export const DNS_TYPES = ['powerdns'] as const;
export type DnsType = (typeof DNS_TYPES)[number];

const apiUrl = z
  .string()
  .trim()
  .min(1, 'Required Field!')
  .max(TEXT_FIELD_MAX)
  .regex(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, 'Wrong Fromat!')
  .transform((u) => u.replace(/\/+$/, ''));

/**
 * client/setting/dns: the provider that answers the site CNAMEs. The API key is a secret: written here, never
 * answered (the answer says whether one is set). Without `apiKey` an update keeps the stored key.
 */
export const dnsSettingBody = z.object({
  type: z.enum(DNS_TYPES),
  apiUrl,
  apiKey: z.string().trim().min(1, 'Required Field!').max(TEXT_FIELD_MAX).optional(),
  serverID: z.string().trim().min(1, 'Required Field!').max(64).regex(/^[A-Za-z0-9_.-]+$/, 'Wrong Fromat!').default('localhost'),
  /** Seconds resolvers may keep an answer: short, so a node that leaves is gone from caches soon. */
  ttl: z.number().int().min(1).max(3600).default(60),
});
export type DnsSettingBody = z.infer<typeof dnsSettingBody>;

export const dnsSetting = z.object({
  type: z.enum(DNS_TYPES).nullable(),
  apiUrl: z.string(),
  apiKeySet: z.boolean(),
  serverID: z.string(),
  ttl: z.number(),
  /** The zone under which sites get their CNAMEs (CNAME_DOMAIN). */
  cnameDomain: z.string(),
  updatedAt: z.string().nullable(),
});

export const dnsTestAnswer = z.object({ ok: z.literal(true), version: z.string() });

export const DNS_TASK_ACTIONS = ['replace', 'delete'] as const;
/** A change of the provider's records that it has not taken yet. */
export const dnsTaskItem = z.object({
  id: z.number(),
  zone: z.string(),
  name: z.string(),
  type: z.string(),
  action: z.enum(DNS_TASK_ACTIONS),
  records: z.array(z.string()),
  attempts: z.number(),
  lastError: z.string().nullable(),
  updatedAt: z.string(),
});
export const dnsTasksQuery = pageQuery;
export const dnsRepairAnswer = z.object({ processed: z.number(), remaining: z.number() });

export const cnameItem = z.object({
  id: z.number(),
  domain: z.string(),
  enabled: z.boolean(),
  memo: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const cnamesQuery = pageQuery.extend({ domain: z.string().max(TEXT_FIELD_MAX).optional() });
export const createCnameBody = z.object({ domain: domainName, enabled: z.boolean().default(true), memo: z.string().max(TEXT_FIELD_MAX).default('') });
export const updateCnameBody = z.object({ id, enabled: z.boolean().optional(), memo: z.string().max(TEXT_FIELD_MAX).optional() });
export const removeCnamesBody = z.object({ ids });
export const cnameMeta = z.object({ id: z.number(), domain: z.string() });
