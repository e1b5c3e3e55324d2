import { Card, Skeleton, Space, Typography } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan, useSelf } from '../../app/use-self';
import { useTier } from '../../app/use-tier';
import { SelfDescriptions } from '../account/self-descriptions';
import { UserDashboard } from './user-dashboard';

const WidgetDashboard = lazy(() => import('../dashboard-widgets/widget-dashboard'));

/**
 * The user's dashboard opens with its tabs and resource usage, the client's with its widget dashboard; every
 * dashboard shows the account's own summary.
 */
export default function DashboardPage() {
  const { t } = useTranslation();
  const tier = useTier();
  const self = useSelf(tier).data!;
  const can = useCan();
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      {tier === 'user' ? <UserDashboard /> : null}
      {tier === 'client' && can('dashboard.view') ? (
        <Suspense fallback={<Skeleton active />}>
          <WidgetDashboard tier="client" />
        </Suspense>
      ) : null}
      <Card title={t('dashboard.title')}>
        <Typography.Paragraph type="secondary">{t('dashboard.subtitle')}</Typography.Paragraph>
        <SelfDescriptions self={self} />
      </Card>
    </Space>
  );
}
