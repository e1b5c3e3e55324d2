import { useQuery } from '@tanstack/react-query';
import { Card, Checkbox, Empty, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../app/use-self';
import { useSiteMutation } from './use-site-mutation';
import { siteKeys, siteOptionCalls, type Ports } from './queries';

/** Which of the zone's open HTTP and HTTPS ports the site listens on (spec §5: at least one of each). */
export function PortsTab({ siteId }: { siteId: number }) {
  const { t } = useTranslation();
  const editable = useCan()('sites.edit');
  const ports = useQuery({ queryKey: siteKeys.zonePorts(siteId), queryFn: () => siteOptionCalls.zonePorts(siteId) });
  const set = useSiteMutation({
    fn: (body: Ports & { on: boolean }) => siteOptionCalls.setPorts(siteId, body),
    success: 'updateSuccess',
    refresh: [siteKeys.zonePorts(siteId), siteKeys.settings(siteId)],
  });
  const group = (type: 'http' | 'https') => {
    const list = (type === 'http' ? ports.data?.httpPorts : ports.data?.httpsPorts) ?? [];
    const on = list.filter((p) => p.enabled);
    return (
      <Card size="small" title={t(type === 'http' ? 'siteOptions.httpPorts' : 'siteOptions.httpsPorts')}>
        {ports.data ? (
          <Space wrap>
            {list.map((p) => (
              <Checkbox
                key={p.port}
                checked={p.enabled}
                // HTTP and HTTPS keep one port each: the last one cannot be turned off.
                disabled={!editable || set.isPending || (p.enabled && on.length === 1)}
                onChange={(e) => set.mutate({ type, ports: [p.port], on: e.target.checked })}
                data-testid={`port-${type}-${p.port}`}
              >
                {p.port}
              </Checkbox>
            ))}
          </Space>
        ) : ports.isFetching ? (
          <Typography.Text>---</Typography.Text>
        ) : (
          <Empty />
        )}
      </Card>
    );
  };
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Text type="secondary">{t('siteOptions.portsHint')}</Typography.Text>
      {group('http')}
      {group('https')}
    </Space>
  );
}
