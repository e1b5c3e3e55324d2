import { Result } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { SelfInfo } from '../api/types';
import { useSelf } from './use-self';
import { useTier } from './use-tier';

/** Whether an account holds a permission key; no key means everyone may. Root accounts hold all keys of their tier. */
export const holds = (self: Pick<SelfInfo, 'isRoot' | 'permissions'> | undefined, key: string | undefined) =>
  key === undefined || (self !== undefined && (self.isRoot || self.permissions.includes(key)));

/** `can(key)` for the signed-in account of this area (false until self information has loaded). */
export function useCan() {
  const self = useSelf(useTier()).data;
  return (key: string | undefined) => holds(self, key);
}

/** A screen behind a permission key: an account without the key sees a 403 page instead. */
export function RequirePermission({ permission, children }: { permission: string; children: ReactNode }) {
  const { t } = useTranslation();
  const can = useCan();
  if (can(permission)) return children;
  return <Result status="403" title={t('error.forbiddenTitle')} subTitle={t('error.forbiddenText')} data-testid="forbidden" />;
}
