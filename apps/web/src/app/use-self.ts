import { useQuery } from '@tanstack/react-query';
import i18next from 'i18next';
import type { Tier } from '@edgekeep/contract/tiers';
import { accountCalls } from '../api/account';
import { HandledFailure } from '../api/failure';
import { endSession } from './session';
import { useTier } from './use-tier';

/** Self information, checked against the tier: another tier's account ends the session ('Auth is not match !'). */
export async function loadSelf(tier: Tier) {
  const self = await (await accountCalls()).self(tier);
  if (self.auth === tier) return self;
  endSession(tier, i18next.t('message.authNotMatch'));
  throw new HandledFailure('auth does not match the tier');
}

export const selfQueryKey = (tier: Tier) => ['self', tier] as const;

export const useSelf = (tier: Tier) => useQuery({ queryKey: selfQueryKey(tier), queryFn: () => loadSelf(tier) });

/** Whether the signed-in account holds a permission key (root accounts hold every key of their tier). */
export function useCan() {
  const self = useSelf(useTier()).data;
  return (key: string) => self?.permissions.includes(key) ?? false;
}
