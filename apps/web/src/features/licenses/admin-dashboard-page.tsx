import { useQuery } from '@tanstack/react-query';
import { Card, Col, Row, Skeleton, Space, Statistic, Tag, Typography, type TableColumnsType } from 'antd';
import { lazy, Suspense } from 'react';
import { Codes } from '@edgekeep/contract/errors';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiFailure } from '../../api/failure';
import { licenseCalls, licenseKeys, type Account } from './queries';
import { useCan } from '../../app/use-self';
import { DataTable } from '../../components/data-table';
import { TextFilter } from '../../components/filter-bar';
import { formatDate } from '../../lib/dates';
import { USAGE_ORDER, UsageProgress, type UsageKind } from './usage-progress';

/** A client's license with usage; null when it holds none (101022 is a state here, not a failure). */
const usageOrNone = (clientId: number) =>
  licenseCalls.usageOf(clientId).catch((err: unknown) => {
    if (err instanceof ApiFailure && err.code === Codes.LicenseMissing) return null;
    throw err;
  });

const useUsage = (client: Account) =>
  useQuery({ queryKey: licenseKeys.usage(client.id), queryFn: () => usageOrNone(client.id), enabled: client.isRoot });

function LicenseCell({ client }: { client: Account }) {
  const { t } = useTranslation();
  const usage = useUsage(client).data;
  if (!usage) return <Typography.Text type="secondary">{t('adminDashboard.noLicense')}</Typography.Text>;
  const color = usage.expired ? 'red' : usage.daysLeft <= 30 ? 'orange' : 'green';
  return (
    <Space orientation="vertical" size={0}>
      <Typography.Text strong>{usage.name}</Typography.Text>
      <Tag color={color}>
        {formatDate(usage.expiredAt, 'date')} · {usage.expired ? t('systemSetting.expired') : t('systemSetting.days', { count: usage.daysLeft })}
      </Tag>
    </Space>
  );
}

function UsageCell({ client, kind }: { client: Account; kind: UsageKind }) {
  const usage = useUsage(client).data?.usage[kind];
  return usage ? <UsageProgress used={usage.used} limit={usage.limit} size="small" /> : null;
}

const WidgetDashboard = lazy(() => import('../dashboard-widgets/widget-dashboard'));

/** The admin dashboard: the platform's traffic widgets, then clients, licenses, those expiring soon, and each client's usage. */
export default function AdminDashboardPage() {
  const { t } = useTranslation();
  const can = useCan();
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      {can('dashboard.view') ? (
        <Card title={t('dashboardWidgets.title')}>
          <Suspense fallback={<Skeleton active />}>
            <WidgetDashboard tier="admin" />
          </Suspense>
        </Card>
      ) : null}
      <LicenseOverview />
    </Space>
  );
}

function LicenseOverview() {
  const { t } = useTranslation();
  const can = useCan();
  const allowed = can('licenses.view');
  const overview = useQuery({ queryKey: licenseKeys.overview, queryFn: licenseCalls.overview, enabled: allowed, staleTime: 0 });
  if (!allowed) {
    return (
      <Card title={t('menu.dashboard')} data-testid="admin-dashboard">
        <Typography.Text type="secondary">{t('adminDashboard.noAccess')}</Typography.Text>
      </Card>
    );
  }
  const o = overview.data;
  const stat = (key: keyof NonNullable<typeof o>, label: string, link?: string) => (
    <Col xs={12} lg={6}>
      <Card loading={overview.isLoading} data-testid={`stat-${key}`}>
        <Statistic title={link ? <Link to={link}>{label}</Link> : label} value={o?.[key] ?? '---'} />
      </Card>
    </Col>
  );
  const columns: TableColumnsType<Account> = [
    { key: 'name', dataIndex: 'name', title: t('adminDashboard.client'), sorter: true },
    { key: 'email', dataIndex: 'email', title: t('adminDashboard.email'), sorter: true },
    { key: 'license', title: t('adminDashboard.license'), render: (_, a) => <LicenseCell client={a} /> },
    ...USAGE_ORDER.map((kind) => ({ key: kind, title: t(`licenses.usage.${kind}`), render: (_: unknown, a: Account) => <UsageCell client={a} kind={kind} /> })),
  ];
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }} data-testid="admin-dashboard">
      <Row gutter={[16, 16]}>
        {stat('clients', t('adminDashboard.clients'))}
        {stat('licenses', t('adminDashboard.licenses'), '/admin/licenses')}
        {stat('issued', t('adminDashboard.issued'))}
        {stat('expiringSoon', t('adminDashboard.expiringSoon'), '/admin/licenses?sortBy=expiredAt&orderBy=ascend')}
      </Row>
      {can('accounts.view') ? (
        <Card title={t('adminDashboard.usage')}>
          <DataTable<Account>
            queryKey={licenseKeys.dashboardClients}
            fetch={licenseCalls.clients}
            columns={columns}
            rowKey="id"
            filters={<TextFilter name="name" placeholder={t('adminDashboard.client')} />}
          />
        </Card>
      ) : null}
    </Space>
  );
}
