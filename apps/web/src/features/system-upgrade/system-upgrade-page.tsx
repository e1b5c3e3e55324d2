import { Button, Card, Popconfirm, Progress, Space, Typography, type TableColumnsType } from 'antd';
import { useState, type Key } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { DataTable } from '../../components/data-table';
import { TextFilter } from '../../components/filter-bar';
import { fetchUpgradeNodes, upgradeKeys, useLatestVersion, useUpgradeNodes, type UpgradeNode } from './queries';
import { UpgradeLogDrawer } from './upgrade-log-drawer';
import { UpgradeStateTag } from './upgrade-state-tag';

const POLL_MS = 2000;
const busy = (page: { data: UpgradeNode[] } | undefined) => (page?.data.some((n) => n.upgradeState === 'updating') ? POLL_MS : false);

/** System upgrade: the nodes with their agent version and upgrade state; upgrade many at once, follow each one's log. */
export default function SystemUpgradePage() {
  const { t } = useTranslation();
  const canEdit = useCan()('system.edit');
  const latest = useLatestVersion().data?.data.version;
  const upgrade = useUpgradeNodes();
  const [logOf, setLogOf] = useState<UpgradeNode>();
  const columns: TableColumnsType<UpgradeNode> = [
    { key: 'name', dataIndex: 'name', title: t('systemUpgrade.column.name'), sorter: true },
    { key: 'ip', dataIndex: 'ip', title: t('systemUpgrade.column.ip'), sorter: true },
    { key: 'zoneName', dataIndex: 'zoneName', title: t('systemUpgrade.column.zone') },
    { key: 'status', title: t('systemUpgrade.column.status'), render: (_, r) => t(`nodeStatus.${r.status}` as 'nodeStatus.normal') },
    { key: 'version', title: t('systemUpgrade.column.version'), sorter: true, render: (_, r) => <span data-testid={`upgrade-version-${r.id}`}>{r.version ?? '-'}</span> },
    { key: 'upgradeState', title: t('systemUpgrade.column.upgradeState'), render: (_, r) => <UpgradeStateTag state={r.upgradeState} testId={`upgrade-state-${r.id}`} /> },
    {
      key: 'progress',
      title: t('systemUpgrade.column.progress'),
      render: (_, r) => (r.upgradeAt ? <Progress style={{ width: 140 }} size="small" percent={r.progress} status={r.upgradeState === 'failed' ? 'exception' : r.upgradeState === 'updating' ? 'active' : undefined} /> : '-'),
    },
    {
      key: 'actions',
      title: t('common.actions'),
      fixed: 'right',
      render: (_, r) => (
        <Button size="small" type="link" onClick={() => setLogOf(r)} data-testid={`upgrade-log-${r.id}`}>
          {t('systemUpgrade.log')}
        </Button>
      ),
    },
  ];
  const batch = (selected: Key[], clear: () => void) =>
    canEdit ? (
      <Popconfirm
        title={t('systemUpgrade.confirm', { count: selected.length, version: latest ?? '' })}
        okText={t('common.confirm')}
        cancelText={t('common.cancel')}
        disabled={!selected.length}
        onConfirm={() =>
          upgrade.mutate(selected.map(Number), {
            onSuccess: () => {
              toast.success(t('nodes.upgradeSent'));
              clear();
            },
          })
        }
      >
        <Button type="primary" disabled={!selected.length} loading={upgrade.isPending} data-testid="upgrade-selected">
          {t('systemUpgrade.upgradeSelected', { count: selected.length })}
        </Button>
      </Popconfirm>
    ) : null;
  return (
    <Card title={t('menu.systemUpgrade')}>
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Text data-testid="latest-version">{t('systemUpgrade.latest', { version: latest ?? '---' })}</Typography.Text>
        <DataTable<UpgradeNode>
          queryKey={upgradeKeys.list}
          fetch={fetchUpgradeNodes}
          rowKey="id"
          columns={columns}
          batch={batch}
          refetchInterval={busy}
          filters={<TextFilter name="keyword" placeholder={t('systemUpgrade.search')} />}
        />
      </Space>
      {logOf ? <UpgradeLogDrawer node={logOf} onClose={() => setLogOf(undefined)} /> : null}
    </Card>
  );
}
