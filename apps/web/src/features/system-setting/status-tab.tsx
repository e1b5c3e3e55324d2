import { Button, Card, Descriptions, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../lib/dates';
import { useHealth } from './queries';

/** The control plane's own status: reachable, its version and database. */
export default function StatusTab() {
  const { t } = useTranslation();
  const health = useHealth();
  const h = health.data?.data;
  return (
    <Card title={t('settingTabs.status')} data-testid="system-status" extra={<Button onClick={() => void health.refetch()} loading={health.isFetching}>{t('settingTabs.refresh')}</Button>}>
      <Descriptions bordered column={1}>
        <Descriptions.Item label={t('settingTabs.statusLabel')}>
          {h ? <Tag color="green" data-testid="status-ok">{t('settingTabs.ok')}</Tag> : health.isError ? <Tag color="red">{t('settingTabs.down')}</Tag> : '---'}
        </Descriptions.Item>
        <Descriptions.Item label={t('settingTabs.version')}>{h?.version ?? '---'}</Descriptions.Item>
        <Descriptions.Item label={t('settingTabs.database')}>{h?.database ?? '---'}</Descriptions.Item>
        <Descriptions.Item label={t('settingTabs.serverTime')}>{h ? formatDate(h.time) : '---'}</Descriptions.Item>
      </Descriptions>
    </Card>
  );
}
