import { z } from 'zod';
import { displayName } from './name';
import { TEXT_FIELD_MAX } from '../constants';
import { pageQuery } from '../paging';
import { id } from './account';
import { domainName } from './domains';

/** A CNAME record, or an IP record: a node of the zone (its address) or any address. */
export const virtualNodeRecordInput = z.discriminatedUnion('type', [
  z.object({ type: z.literal('cname'), value: domainName }),
  z.object({ type: z.literal('ip'), value: z.union([z.ipv4(), z.ipv6()]) }),
  z.object({ type: z.literal('node'), nodeID: id }),
]);
export const virtualNodeRecord = z.object({ id: z.number(), type: z.enum(['cname', 'ip']), value: z.string(), nodeID: z.number().nullable() });
export const virtualNodeItem = z.object({
  id: z.number(),
  nodeUID: z.string(),
  zoneID: z.number(),
  name: z.string(),
  /** Seconds between switches from one record to the next. */
  switchInterval: z.number(),
  records: z.array(virtualNodeRecord),
  memo: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const fields = {
  name: displayName(64),
  switchInterval: z.number().int().min(1).max(86_400).default(60),
  records: z.array(virtualNodeRecordInput).min(1).max(100),
  memo: z.string().max(TEXT_FIELD_MAX).default(''),
};
export const createVirtualNodeBody = z.object(fields);
export const updateVirtualNodeBody = z.object({
  id,
  name: fields.name.optional(),
  switchInterval: z.number().int().min(1).max(86_400).optional(),
  records: fields.records.optional(),
  memo: z.string().max(TEXT_FIELD_MAX).optional(),
});
export const virtualNodeRef = z.object({ id });
export const virtualNodesQuery = pageQuery.extend({ name: z.string().max(TEXT_FIELD_MAX).optional() });
