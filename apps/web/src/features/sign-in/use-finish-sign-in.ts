import i18next from 'i18next';
import { useNavigate } from 'react-router';
import type { Tier } from '@edgekeep/contract/tiers';
import { writeTokens, type Tokens } from '../../api/cookies';
import { toast } from '../../app/feedback';
import { queryClient } from '../../app/query-client';
import { loadSelf, selfQueryKey } from '../../app/use-self';

/** A root client without a DNS type starts at the DNS settings; everyone else at the dashboard. */
export const landingPath = (tier: Tier, self: { isRoot: boolean; dnsType: string | null }) =>
  tier === 'client' && self.isRoot && !self.dnsType ? '/client/systemManagement/dnsSetting' : `/${tier}/dashboard`;

/** Stores the tokens, loads self information and opens the account's first screen. */
export function useFinishSignIn(tier: Tier) {
  const navigate = useNavigate();
  return async (tokens: Tokens) => {
    writeTokens(tier, tokens);
    const self = await queryClient.fetchQuery({ queryKey: selfQueryKey(tier), queryFn: () => loadSelf(tier) });
    navigate(landingPath(tier, self), { replace: true });
    toast.success(i18next.t('message.loginSuccess'));
  };
}
