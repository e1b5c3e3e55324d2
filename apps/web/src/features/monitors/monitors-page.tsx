import { Button, Card, Popconfirm, Space, Switch, Tag, Tooltip, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { DataTable } from '../../components/data-table';
import { formatDate } from '../../lib/dates';
import { MonitorFormModal } from './monitor-form-modal';
import { fetchMonitors, monitorKeys, useEnableMonitors, useRemoveMonitors, type Monitor } from './queries';
import { RemoveButton } from '../../components/remove-button';

const STATUS = [
  { key: 'monitors.unknown', color: 'default' },
  { key: 'monitors.normal', color: 'success' },
  { key: 'monitors.error', color: 'error' },
] as const;
/** The list follows the probes the API runs. */
const REFRESH_MS = 5000;

export default function MonitorsPage() {
  const { t } = useTranslation();
  const canEdit = useCan()('monitors.edit');
  const [open, setOpen] = useState<{ monitor?: Monitor }>();
  const enable = useEnableMonitors(() => toast.success(t('infra.updateSuccess')));
  const remove = useRemoveMonitors(() => toast.success(t('infra.removeSuccess')));
  const target = (m: Monitor) => (m.type === 'tcp' ? `${m.nodeIP}:${m.port}` : m.type === 'ping' ? m.nodeIP : m.url);
  const columns: TableColumnsType<Monitor> = [
    { key: 'nodeName', dataIndex: 'nodeName', title: t('monitors.node'), sorter: true, render: (v: string, m) => `${v} (${m.nodeIP})` },
    { key: 'type', dataIndex: 'type', title: t('monitors.type'), sorter: true, render: (v: Monitor['type']) => t(`monitors.types.${v}`) },
    { key: 'target', title: t('monitors.target'), render: (_, m) => target(m) },
    { key: 'interval', dataIndex: 'interval', title: t('monitors.interval') },
    { key: 'failureAction', dataIndex: 'failureAction', title: t('monitors.failureAction'), render: (v: string) => t(v === 'pause' ? 'monitors.actionPause' : 'monitors.actionNone') },
    {
      key: 'status',
      dataIndex: 'status',
      title: t('monitors.status'),
      sorter: true,
      render: (v: number, m) => (
        <Tooltip title={m.lastError}>
          <Tag color={STATUS[v].color}>{t(STATUS[v].key)}</Tag>
        </Tooltip>
      ),
    },
    { key: 'checkedAt', dataIndex: 'checkedAt', title: t('monitors.checkedAt'), render: (v: string | null) => (v ? formatDate(v) : '---') },
    {
      key: 'enabled',
      dataIndex: 'enabled',
      title: t('monitors.enabled'),
      render: (v: boolean, m) => <Switch size="small" checked={v} disabled={!canEdit} onChange={(enabled) => enable.mutate({ ids: [m.id], enabled })} />,
    },
    {
      key: 'actions',
      title: t('infra.actions'),
      render: (_, m) =>
        canEdit ? (
          <Space size="small">
            <Button size="small" onClick={() => setOpen({ monitor: m })}>
              {t('infra.edit')}
            </Button>
            <RemoveButton name={m.nodeName} onConfirm={() => remove.mutate([m.id])} />
          </Space>
        ) : null,
    },
  ];
  const batch = (selected: React.Key[], clear: () => void) => {
    if (!canEdit) return null;
    const ids = selected.map(Number);
    return (
      <>
        <Button disabled={!ids.length} onClick={() => enable.mutate({ ids, enabled: true }, { onSuccess: clear })}>
          {t('monitors.enable')}
        </Button>
        <Button disabled={!ids.length} onClick={() => enable.mutate({ ids, enabled: false }, { onSuccess: clear })}>
          {t('monitors.disable')}
        </Button>
        <Popconfirm title={t('infra.removeSelectedConfirm', { count: ids.length })} disabled={!ids.length} onConfirm={() => remove.mutate(ids, { onSuccess: clear })} okText={t('common.confirm')} cancelText={t('infra.cancel')}>
          <Button danger disabled={!ids.length}>
            {t('infra.remove')}
          </Button>
        </Popconfirm>
      </>
    );
  };
  return (
    <Card title={t('menu.monitorNodeList')}>
      <DataTable<Monitor>
        queryKey={monitorKeys.all}
        fetch={fetchMonitors}
        columns={columns}
        rowKey="id"
        batch={batch}
        refetchInterval={REFRESH_MS}
        toolbar={
          canEdit ? (
            <Button type="primary" onClick={() => setOpen({})}>
              {t('monitors.add')}
            </Button>
          ) : null
        }
      />
      {open ? <MonitorFormModal monitor={open.monitor} onClose={() => setOpen(undefined)} /> : null}
    </Card>
  );
}
