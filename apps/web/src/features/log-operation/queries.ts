import { accountRoutes as r } from '@edgekeep/contract/routes/accounts';
import { AUDIT_TYPES, type auditItem, type auditQuery } from '@edgekeep/contract/schemas/accounts';
import type { Tier } from '@edgekeep/contract/tiers';
import type { z } from 'zod';
import { callRoute } from '../../api/route-client';
import type { ListQuery } from '../../components/list-params';

export type AuditItem = z.output<typeof auditItem>;

export const auditKeys = { list: (tier: Tier) => ['auditLogs', tier] as const };

/** The operation log of the signed-in account and those below it, of its area (spec §2: a, c, u). */
export const fetchAuditLogs = (tier: Tier, query: ListQuery) =>
  callRoute(r.auditLogs, { tier, body: { ...query, type: AUDIT_TYPES[tier] } as z.input<typeof auditQuery> });
