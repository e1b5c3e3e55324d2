import { Card, Progress, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { useTier } from '../../app/use-tier';
import { DataTable } from '../../components/data-table';
import { formatBytes } from '../../lib/units';
import { MonthFilter } from './month-filter';
import { TrafficStateTag } from './traffic-state-tag';
import { fetchMonthlyUsages, trafficKeys, type MonthlyUsage } from './queries';
import { UserFilter } from './user-filter';

/** The traffic report: per site, the bytes really served in a month against its allowance (this month unless picked). */
export default function ReportPage() {
  const { t } = useTranslation();
  const tier = useTier() === 'client' ? 'client' : 'user';
  const columns: TableColumnsType<MonthlyUsage> = [
    { key: 'siteName', dataIndex: 'siteName', title: t('traffic.site') },
    ...(tier === 'client' ? [{ key: 'userEmail', dataIndex: 'userEmail', title: t('traffic.user') }] : []),
    { key: 'productName', dataIndex: 'productName', title: t('traffic.product') },
    { key: 'month', title: t('traffic.month'), render: (_, u) => `${u.year}/${String(u.month).padStart(2, '0')}` },
    { key: 'bytesSent', dataIndex: 'bytesSent', title: t('traffic.served'), render: (v: number) => formatBytes(v) },
    { key: 'trafficState', title: t('traffic.state'), render: (_, u) => <TrafficStateTag state={u.trafficState} stopped={u.limited} /> },
    {
      key: 'usedPercent',
      title: t('traffic.used'),
      render: (_, u) => (u.allowanceBytes ? <Progress percent={Math.min(u.usedPercent, 100)} format={() => `${u.usedPercent}%`} size="small" status={u.trafficState === 'limited' ? 'exception' : 'normal'} style={{ width: 120 }} /> : '—'),
    },
    { key: 'allowance', dataIndex: 'allowanceBytes', title: t('traffic.allowance'), render: (v: number) => (v ? formatBytes(v) : t('traffic.unlimited')) },
    { key: 'extraTrafficGB', dataIndex: 'extraTrafficGB', title: t('traffic.packagesGB') },
    { key: 'bytesReceived', dataIndex: 'bytesReceived', title: t('traffic.received'), render: (v: number) => formatBytes(v) },
    { key: 'requests', dataIndex: 'requests', title: t('traffic.requests') },
  ];
  return (
    <Card title={t('menu.trafficReport')}>
      <DataTable<MonthlyUsage>
        queryKey={trafficKeys.monthlyUsages(tier)}
        fetch={(query) => fetchMonthlyUsages(tier, query)}
        columns={columns}
        rowKey="siteID"
        filters={
          <>
            <MonthFilter placeholder={t('traffic.thisMonth')} />
            {tier === 'client' ? <UserFilter placeholder={t('traffic.filterUser')} /> : null}
          </>
        }
      />
    </Card>
  );
}
