import { z } from 'zod';
import { ITEM_LIST_MAX, TEXT_FIELD_MAX } from '../constants';
import { isL4PortAllowed } from '../edge/constants';
import { pageQuery } from '../paging';
import { id, idParam } from './account';
import { ids } from './accounts';
import { upstreamInput } from './domains';

/** Spec §5: layer-4 forwarding ports are 1000–65000 (tcp), minus 3311, 3306, 6379, 9100 and 61000–61199. */
export const l4Port = z.number().int().refine(isL4PortAllowed, 'Port not allowed');
export const l4UpstreamInput = upstreamInput.omit({ hash: true, keepalive: true });
export const l4UpstreamItem = z.object({
  id: z.number(),
  host: z.string(),
  port: z.number(),
  weight: z.number(),
  backup: z.boolean(),
  maxFails: z.number(),
  failTimeout: z.number(),
  enabled: z.boolean(),
  createdAt: z.string(),
});
export const portItem = z.object({
  id: z.number(),
  siteID: z.number(),
  port: z.number(),
  protocol: z.literal('tcp'),
  /** Always 4: a site with layer-4 ports is a layer-4 site. */
  portType: z.literal(4),
  upstreams: z.array(l4UpstreamItem),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const siteParams = z.object({ siteId: idParam });
export const portParams = z.object({ siteId: idParam, portId: idParam });
export const portsQuery = pageQuery;
const upstreams = z.array(l4UpstreamInput).min(1).max(100);
const uniquePorts = (list: { port: number }[]) => new Set(list.map((p) => p.port)).size === list.length;
export const portInput = z.object({ port: l4Port, upstreams });
export const createPortsBody = z.object({ ports: z.array(portInput).min(1).max(ITEM_LIST_MAX).refine(uniquePorts, 'Data already exists!') });
/** Batch creation: ports one per line (or a range `from-to`), all forwarding to the same origins. */
export const batchCreateBody = z.object({
  ports: z
    .string()
    .max(ITEM_LIST_MAX * 12)
    .transform((text, ctx) => {
      const out: number[] = [];
      for (const line of text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean)) {
        const m = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(line);
        const from = m ? Number(m[1]) : NaN;
        const to = m?.[2] ? Number(m[2]) : from;
        if (!m || to < from || to - from >= ITEM_LIST_MAX) {
          ctx.addIssue({ code: 'custom', message: `Port is not valid!Please Check again! (${line})` });
          return z.NEVER;
        }
        for (let p = from; p <= to; p++) out.push(p);
      }
      return out;
    })
    .pipe(z.array(l4Port).min(1).max(ITEM_LIST_MAX).refine((l) => new Set(l).size === l.length, 'Data already exists!')),
  upstreams,
});
export const updatePortBody = z.object({ id, port: l4Port });
export const idsBody = z.object({ ids });
export const upstreamsQuery = pageQuery.extend({ keyword: z.string().max(TEXT_FIELD_MAX).optional() });
export const addUpstreamsBody = z.object({ upstreams });
export const updateUpstreamBody = l4UpstreamInput.partial().extend({ id });
