import type { autoCertificateSchemas } from '@edgekeep/contract';
import type { z } from 'zod';

type Hint = z.infer<typeof autoCertificateSchemas.autoCertHint>;

export const WILDCARD_NEEDS_DNS = 'a wildcard certificate needs DNS validation, and no DNS provider is configured';

/** Which of §8's hints a CA's error points at: rate limits at the budget, failed lookups at TTLs, unreachable names at the CNAME. */
export function hintOf(error: string): Hint {
  if (/rate ?limit|too many (certificates|new orders|failed)/i.test(error)) return 'budget';
  if (/NXDOMAIN|SERVFAIL|no TXT|TXT record|DNS problem|dns/i.test(error)) return 'ttl';
  if (/connect|refused|timeout|timed out|unreachable|unauthorized|incorrect|fetching|404|no valid|EAI_AGAIN|ENOTFOUND/i.test(error)) return 'cname';
  return 'ca';
}
