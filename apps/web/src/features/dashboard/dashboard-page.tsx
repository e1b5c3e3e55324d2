import { Card, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSelf } from '../../app/use-self';
import { useTier } from '../../app/use-tier';
import { SelfDescriptions } from '../account/self-descriptions';
import { UserDashboard } from './user-dashboard';

/** The user's dashboard opens with its tabs and resource usage; every dashboard shows the account's own summary. */
export default function DashboardPage() {
  const { t } = useTranslation();
  const tier = useTier();
  const self = useSelf(tier).data!;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      {tier === 'user' ? <UserDashboard /> : null}
      <Card title={t('dashboard.title')}>
        <Typography.Paragraph type="secondary">{t('dashboard.subtitle')}</Typography.Paragraph>
        <SelfDescriptions self={self} />
      </Card>
    </Space>
  );
}
