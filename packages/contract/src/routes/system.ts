import { z } from 'zod';
import { envelope } from '../paging';
import { defineRoute } from '../route';

export const health = z.object({
  status: z.literal('ok'),
  version: z.string(),
  database: z.enum(['sqlite', 'postgres']),
  time: z.string(),
});

export const systemRoutes = {
  health: defineRoute({ id: 'health', method: 'GET', path: 'health', tier: 'any', public: true, tag: 'System',
    summary: 'Liveness and database reachability', response: envelope(health) }),
} as const;
