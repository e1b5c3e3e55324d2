import { Card, Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../app/use-self';
import { useTier } from '../../app/use-tier';
import { AuditLogTable } from '../log-operation/audit-log-table';
import { analyticsTier } from '../statistics/queries';
import { LogLines } from './log-lines';

/** Logs: the access and WAF lines the edges served, and the operation log (audit). */
export default function LoggerPage() {
  const { t } = useTranslation();
  const tier = analyticsTier(useTier());
  const can = useCan();
  const [search, setSearch] = useSearchParams();
  const tab = search.get('tab') ?? 'access';
  const items = [
    { key: 'access', label: t('logs.tab.access'), children: <LogLines tier={tier} kind="access" /> },
    { key: 'waf', label: t('logs.tab.waf'), children: <LogLines tier={tier} kind="waf" /> },
    ...(can('auditLogs.view') ? [{ key: 'audit', label: t('logs.tab.audit'), children: <AuditLogTable /> }] : []),
  ];
  return (
    <Card title={t('menu.logger')}>
      <Tabs activeKey={tab} items={items} destroyOnHidden onChange={(key) => setSearch({ tab: key }, { replace: true })} />
    </Card>
  );
}
