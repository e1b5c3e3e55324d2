import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { AuditLogTable } from './audit-log-table';

/** The operation log screen. */
export default function LogOperationPage() {
  const { t } = useTranslation();
  return (
    <Card title={t('menu.logOperation')}>
      <AuditLogTable />
    </Card>
  );
}
