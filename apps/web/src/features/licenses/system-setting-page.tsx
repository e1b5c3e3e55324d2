import { useQuery } from '@tanstack/react-query';
import { Card, Descriptions, Empty, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { licenseCalls, licenseKeys } from './queries';
import { useCan } from '../../app/use-self';
import { formatDate } from '../../lib/dates';
import { OfflineActivation } from './offline-activation';
import { UsageBars } from './usage-progress';

/** The client's system screen: its license, usage against each limit, expiry, and the offline activation. */
export default function SystemSettingPage() {
  const { t } = useTranslation();
  const can = useCan();
  const license = useQuery({ queryKey: licenseKeys.mine, queryFn: licenseCalls.mine, staleTime: 0, enabled: can('system.view') });
  if (!can('system.view')) return <Navigate to="/404" replace />;
  const l = license.data;
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Card title={t('systemSetting.license')} loading={license.isLoading} data-testid="my-license">
        {l ? (
          <Descriptions bordered column={{ xs: 1, md: 2 }}>
            <Descriptions.Item label={t('licenses.name')}>{l.name}</Descriptions.Item>
            <Descriptions.Item label={t('systemSetting.kind')}>{t(l.kind === 'online' ? 'systemSetting.kinds.online' : 'systemSetting.kinds.offline')}</Descriptions.Item>
            <Descriptions.Item label={t('licenses.portType')}>{t(`licenses.layer.${l.portType === '7' ? 'l7' : 'l74'}`)}</Descriptions.Item>
            <Descriptions.Item label={t('licenses.nodeMonitorSeconds')}>{l.nodeMonitorSeconds}</Descriptions.Item>
            <Descriptions.Item label={t('licenses.startAt')}>{formatDate(l.startAt)}</Descriptions.Item>
            <Descriptions.Item label={t('licenses.expiredAt')}>
              <span data-testid="license-expiry">{formatDate(l.expiredAt)}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('systemSetting.daysLeft')}>
              {l.expired ? (
                <Tag color="red">{t('systemSetting.expired')}</Tag>
              ) : (
                <Tag color={l.daysLeft <= 30 ? 'orange' : 'green'} data-testid="days-left">
                  {t('systemSetting.days', { count: l.daysLeft })}
                </Tag>
              )}
            </Descriptions.Item>
            <Descriptions.Item label={t('systemSetting.issuedAt')}>{formatDate(l.issuedAt)}</Descriptions.Item>
          </Descriptions>
        ) : (
          <Empty description={t('systemSetting.noLicense')} />
        )}
      </Card>
      {l ? (
        <Card title={t('systemSetting.usage')}>
          <UsageBars usage={l.usage} />
        </Card>
      ) : null}
      {can('system.edit') ? <OfflineActivation offline={l?.kind === 'offline'} /> : null}
    </Space>
  );
}
