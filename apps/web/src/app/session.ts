import type { Tier } from '@edgekeep/contract/tiers';
import { clearTokens } from '../api/cookies';
import { toast } from './feedback';
import { goTo } from './navigation';
import { queryClient } from './query-client';
import { forgetSelections } from './stored-selections';

/** Ends the tier's session in the browser: cookies, stored selections, cached data, then the login form with a message. */
export function endSession(tier: Tier, text: string, kind: 'error' | 'success' = 'error') {
  clearTokens(tier);
  forgetSelections();
  queryClient.removeQueries();
  goTo(`/${tier}/login`);
  toast[kind](text);
}
