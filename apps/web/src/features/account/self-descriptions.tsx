import { Badge, Descriptions, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { LOGIN_2FA } from '@edgekeep/contract/constants';
import type { SelfInfo } from '../../api/types';
import { formatDate } from '../../lib/dates';

/** The account's own data as the server reports it. */
export function SelfDescriptions({ self }: { self: SelfInfo }) {
  const { t } = useTranslation();
  const yesNo = (v: boolean) => <Badge status={v ? 'success' : 'default'} text={v ? t('common.yes') : t('common.no')} />;
  const factor = {
    [LOGIN_2FA.mail]: t('account.twoFactorMail'),
    [LOGIN_2FA.app]: t('account.twoFactorApp'),
    [LOGIN_2FA.none]: t('account.twoFactorNone'),
  }[self.login2FAType];
  return (
    <Descriptions bordered column={{ xs: 1, md: 2 }} size="middle" data-testid="self-summary">
      <Descriptions.Item label={t('account.email')}>{self.email}</Descriptions.Item>
      <Descriptions.Item label={t('account.name')}>{self.name}</Descriptions.Item>
      <Descriptions.Item label={t('account.tier')}>
        <Tag color="blue">{t(`tier.${self.auth}`)}</Tag>
      </Descriptions.Item>
      <Descriptions.Item label={t('account.root')}>{yesNo(self.isRoot)}</Descriptions.Item>
      <Descriptions.Item label={t('account.twoFactor')}>{factor}</Descriptions.Item>
      <Descriptions.Item label={t('account.loginNotify')}>{yesNo(self.loginNotify)}</Descriptions.Item>
      <Descriptions.Item label={t('account.emailConfirmed')}>{yesNo(self.emailConfirmed)}</Descriptions.Item>
      <Descriptions.Item label={t('account.expiredAt')}>{formatDate(self.expiredAt) || t('account.never')}</Descriptions.Item>
      <Descriptions.Item label={t('account.createdAt')}>{formatDate(self.createdAt)}</Descriptions.Item>
      <Descriptions.Item label={t('account.updatedAt')}>{formatDate(self.updatedAt)}</Descriptions.Item>
      {self.proxy && <Descriptions.Item label={t('account.switchedBy')}>{self.proxy.email}</Descriptions.Item>}
    </Descriptions>
  );
}
