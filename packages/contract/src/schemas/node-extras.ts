import { z } from 'zod';
import { idParam } from './account';
import { TEXT_FIELD_MAX } from '../constants';
import { pageQuery } from '../paging';
import { genevaWindowCheck, nodeGenevaFields, nodeMonitorFields } from '../edge/agent-protocol';
import { ids } from './accounts';
import { DNS_LINES } from './sites';

/** An extra address of a node's machine (another NIC) that serves traffic too and joins the DNS resolution. */
export const subNodeItem = z.object({ id: z.number(), nodeID: z.number(), ip: z.string(), memo: z.string(), createdAt: z.string() });
export const addSubNodeBody = z.object({ ip: z.union([z.ipv4(), z.ipv6()]), memo: z.string().max(TEXT_FIELD_MAX).default('') });

export const nodeMonitorBody = z.object({ ids, ...nodeMonitorFields });
export const nodeGenevaBody = z.object({ ids, ...nodeGenevaFields }).superRefine(genevaWindowCheck);

export const RESOLUTION_RECORD_TYPES = ['A', 'AAAA', 'CNAME'] as const;
export const resolutionRecord = z.object({
  type: z.enum(RESOLUTION_RECORD_TYPES),
  value: z.string(),
  /** The node answering with this address (for a sub node: its node); null for a virtual node's fixed records. */
  nodeID: z.number().nullable(),
  subNode: z.boolean(),
});
/** What the DNS answers for a site's CNAME on one line: the healthy addresses of the site's group. */
export const resolutionItem = z.object({
  id: z.number(),
  siteID: z.number(),
  siteName: z.string(),
  cname: z.string(),
  zoneID: z.number(),
  zoneName: z.string(),
  groupID: z.number(),
  groupName: z.string(),
  line: z.enum(DNS_LINES),
  records: z.array(resolutionRecord),
  /** No main node was healthy: the group's backup nodes answer. */
  backup: z.boolean(),
  updatedAt: z.string(),
});
export const resolutionsQuery = pageQuery.extend({
  siteID: idParam.optional(),
  cname: z.string().max(TEXT_FIELD_MAX).optional(),
  line: z.enum(DNS_LINES).optional(),
  zoneID: idParam.optional(),
});
