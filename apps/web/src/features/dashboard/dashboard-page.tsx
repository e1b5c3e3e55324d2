import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSelf } from '../../app/use-self';
import { useTier } from '../../app/use-tier';
import { SelfDescriptions } from '../account/self-descriptions';

/** The dashboard shows the account's own summary until the dashboard's widgets exist. */
export default function DashboardPage() {
  const { t } = useTranslation();
  const self = useSelf(useTier()).data!;
  return (
    <Card title={t('dashboard.title')}>
      <Typography.Paragraph type="secondary">{t('dashboard.subtitle')}</Typography.Paragraph>
      <SelfDescriptions self={self} />
    </Card>
  );
}
