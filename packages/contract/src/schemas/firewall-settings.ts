import { z } from 'zod';

/** PUT firewall/setting/advance: the site's advanced WAF/ACL rules on or off (the edge runs them only when on). */
export const advanceBody = z.object({ enabled: z.boolean() });
const counts = z.object({ total: z.number(), enabled: z.number() });
/** GET firewall/settings: what the site's firewall holds, list by list. */
export const firewallSettings = z.object({
  advance: z.boolean(),
  lists: z.record(z.string(), counts),
  blockedIPs: z.number(),
});
