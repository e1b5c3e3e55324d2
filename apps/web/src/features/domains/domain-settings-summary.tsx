import { useQuery } from '@tanstack/react-query';
import { Descriptions, Skeleton, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { domainCalls, domainKeys } from './queries';

export const PROTOCOL_LABELS = { http: 'protocolHttp', https: 'protocolHttps', follow: 'protocolFollow' } as const;

/** A domain's settings as `GET domain/settings` answers them, shown at the top of its drawer. */
export function DomainSettingsSummary({ siteId, domainId, name }: { siteId: number; domainId: number; name: string }) {
  const { t } = useTranslation();
  const settings = useQuery({
    queryKey: domainKeys.settings(siteId, domainId),
    queryFn: async () => (await domainCalls.settings(siteId, { page: 1, pageSize: 25, domainName: name })).data.find((d) => d.id === domainId) ?? null,
  });
  if (settings.isPending) return <Skeleton active paragraph={{ rows: 2 }} />;
  const d = settings.data;
  if (!d) return <Typography.Text type="secondary">{t('domainSettings.noSettings')}</Typography.Text>;
  const onOff = (on: boolean) => <Tag color={on ? 'green' : undefined}>{t(on ? 'domainSettings.on' : 'domainSettings.off')}</Tag>;
  return (
    <Descriptions size="small" column={3} bordered title={t('domainSettings.settingsOf', { name: d.name })} data-testid="domain-settings" style={{ marginBottom: 16 }}>
      <Descriptions.Item label={t('domains.enabled')}>{onOff(d.status === 1)}</Descriptions.Item>
      <Descriptions.Item label={t('domains.protocol')}>{t(`domains.${PROTOCOL_LABELS[d.scheme]}`)}</Descriptions.Item>
      <Descriptions.Item label={t('domainSettings.portMap')}>{onOff(d.portMap.enabled)}</Descriptions.Item>
      <Descriptions.Item label={t('domains.forceSSL')}>{onOff(d.forceSSL)}</Descriptions.Item>
      <Descriptions.Item label={t('domains.hsts')}>{onOff(d.hsts)}</Descriptions.Item>
      <Descriptions.Item label={t('domainSettings.autoSSL')}>{onOff(d.autoSSL)}</Descriptions.Item>
      <Descriptions.Item label={t('domainSettings.balance')}>{t(`domainSettings.balanceOf.${d.balance}`)}</Descriptions.Item>
      <Descriptions.Item label={t('domainSettings.certStatus')}>{t(`domainSettings.cert.${d.certStatus}`)}</Descriptions.Item>
      <Descriptions.Item label={t('sites.tags')}>
        <Space size={4} wrap>
          {d.tags.length ? d.tags.map((tag) => <Tag key={tag}>{tag}</Tag>) : '—'}
        </Space>
      </Descriptions.Item>
    </Descriptions>
  );
}
