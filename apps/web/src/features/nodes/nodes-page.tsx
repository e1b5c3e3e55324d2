import { useMutation } from '@tanstack/react-query';
import { Button, Card, Dropdown, Popconfirm, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NODE_LIST_REFRESH_MS } from '@edgekeep/contract/constants';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { DataTable, type Column } from '../../components/data-table';
import { SelectFilter, TextFilter } from '../../components/filter-bar';
import { formatDate } from '../../lib/dates';
import { useZoneOptions } from '../zones/use-meta-zones';
import { EnrolmentModal } from './enrolment-modal';
import { MoveZoneModal, NodeMemoModal } from './node-batch-modals';
import { NodeCommandsModal } from './node-commands-modal';
import { NodeFormModal } from './node-form-modal';
import { NodeStatusTag, NODE_STATUS_NAMES } from './node-status-tag';
import { NodeSystemDrawer } from './node-system-drawer';
import { NodeGenevaModal, NodeMonitorModal } from './node-settings-modals';
import { SubNodesModal } from './sub-nodes-modal';
import { RemoveButton } from '../../components/remove-button';
import { nodeCalls, nodeKeys, fetchNodes, useNodesChange, type Node } from './queries';

type Open =
  | { kind: 'form'; node?: Node }
  | { kind: 'enrol' | 'commands' | 'system' | 'subNodes'; node: Node }
  | { kind: 'monitor' | 'geneva'; ids: number[]; node?: Node; clear?: () => void }
  | { kind: 'memo' | 'move'; ids: number[]; clear: () => void };
type RowAction = 'system' | 'subNodes' | 'copyInfo' | 'edit' | 'enrol' | 'commands' | 'monitor' | 'geneva';

export default function NodesPage() {
  const { t } = useTranslation();
  const canEdit = useCan()('nodes.edit');
  const zones = useZoneOptions();
  const [open, setOpen] = useState<Open>();
  const close = () => setOpen(undefined);
  const remove = useNodesChange(nodeCalls.remove, () => toast.success(t('infra.removeSuccess')));
  const deinit = useNodesChange(nodeCalls.deinitialize, () => toast.success(t('infra.updateSuccess')));
  const setEnabled = useNodesChange(nodeCalls.setEnabled, () => toast.success(t('infra.updateSuccess')));

  const copyInfo = useMutation({
    mutationFn: async (node: Node) => navigator.clipboard.writeText(await nodeCalls.info(node.id)),
    onSuccess: () => toast.success(t('nodeExtras.infoCopied')),
    onError: (err) => err instanceof DOMException && toast.error(t('nodeExtras.copyFailed')),
  });

  const rowActions = (node: Node) => {
    const items = [
      { key: 'system', label: t('nodes.system') },
      { key: 'subNodes', label: t('nodeExtras.subNodes') },
      { key: 'copyInfo', label: t('nodeExtras.copyInfo') },
      ...(canEdit
        ? [
            { key: 'edit', label: t('infra.edit') },
            { key: 'enrol', label: t('nodes.initialize') },
            { key: 'commands', label: t('nodes.commands') },
            { key: 'monitor', label: t('nodeExtras.monitor') },
            { key: 'geneva', label: t('nodeExtras.geneva') },
          ]
        : []),
    ];
    const onClick = ({ key }: { key: string }) => {
      const action = key as RowAction;
      if (action === 'copyInfo') copyInfo.mutate(node);
      else if (action === 'edit') setOpen({ kind: 'form', node });
      else if (action === 'monitor' || action === 'geneva') setOpen({ kind: action, ids: [node.id], node });
      else setOpen({ kind: action, node });
    };
    return (
      <Space size="small">
        <Dropdown menu={{ items, onClick }}>
          <Button size="small">{t('infra.actions')}</Button>
        </Dropdown>
        {canEdit && node.initialized ? (
          <Popconfirm title={t('nodes.deinitializeConfirm', { name: node.name })} onConfirm={() => deinit.mutate([node.id])} okText={t('common.confirm')} cancelText={t('infra.cancel')}>
            <Button size="small">{t('nodes.deinitialize')}</Button>
          </Popconfirm>
        ) : null}
        {canEdit ? (
          <RemoveButton name={node.name} onConfirm={() => remove.mutate([node.id])} />
        ) : null}
      </Space>
    );
  };

  const columns: Column<Node>[] = [
    {
      key: 'name',
      title: t('infra.name'),
      sorter: true,
      render: (_, n) => (
        <Space orientation="vertical" size={0}>
          {n.name}
          <Typography.Text type="secondary">{n.nodeUID}</Typography.Text>
        </Space>
      ),
    },
    { key: 'ip', dataIndex: 'ip', title: t('nodes.ip'), sorter: true },
    { key: 'zoneName', dataIndex: 'zoneName', title: t('infra.zone') },
    { key: 'status', title: t('nodes.status'), render: (_, n) => <NodeStatusTag node={n} /> },
    { key: 'initialized', title: t('nodes.initialized'), render: (_, n) => (n.initialized ? <Tag color="blue">{t('nodes.initialized')}</Tag> : <Tag>{t('nodes.notInitialized')}</Tag>) },
    { key: 'role', detail: true, title: t('nodes.role'), render: (_, n) => `${t(n.type === 'edge' ? 'nodes.edge' : 'nodes.relay')} · ${t(n.role === 'main' ? 'nodes.main' : 'nodes.backup')} · L${n.portType}` },
    { key: 'version', detail: true, dataIndex: 'version', title: t('nodes.version'), render: (v: string | null) => v ?? '-' },
    {
      key: 'revision',
      detail: true,
      title: t('nodes.revision'),
      render: (_, n) => <Typography.Text type={n.appliedRevision !== null && n.appliedRevision < n.revision ? 'warning' : undefined}>{`${n.appliedRevision ?? '-'} / ${n.revision}`}</Typography.Text>,
    },
    { key: 'lastReportAt', dataIndex: 'lastReportAt', title: t('nodes.lastReport'), sorter: true, render: (v: string | null) => formatDate(v) || t('nodes.neverReported') },
    { key: 'cacheCapacity', detail: true, dataIndex: 'cacheCapacity', title: t('nodes.cacheCapacity'), render: (v: number) => (v === 0 ? t('nodes.globalSetting') : `${v} MB`) },
    { key: 'memo', detail: true, dataIndex: 'memo', title: t('infra.memo'), ellipsis: true },
    { key: 'actions', title: t('infra.actions'), fixed: 'right', render: (_, n) => rowActions(n) },
  ];

  const batch = (selected: React.Key[], clear: () => void) => {
    if (!canEdit) return null;
    const ids = selected.map(Number);
    const none = ids.length === 0;
    return (
      <>
        <Button disabled={none} onClick={() => setEnabled.mutate({ ids, enabled: false }, { onSuccess: clear })}>
          {t('nodes.pause')}
        </Button>
        <Button disabled={none} onClick={() => setEnabled.mutate({ ids, enabled: true }, { onSuccess: clear })}>
          {t('nodes.enable')}
        </Button>
        <Button disabled={none} onClick={() => setOpen({ kind: 'memo', ids, clear })}>
          {t('nodes.setMemo')}
        </Button>
        <Button disabled={none} onClick={() => setOpen({ kind: 'move', ids, clear })}>
          {t('nodes.moveZone')}
        </Button>
        <Button disabled={none} onClick={() => setOpen({ kind: 'monitor', ids, clear })}>
          {t('nodeExtras.monitor')}
        </Button>
        <Button disabled={none} onClick={() => setOpen({ kind: 'geneva', ids, clear })}>
          {t('nodeExtras.geneva')}
        </Button>
        <Popconfirm title={t('infra.removeSelectedConfirm', { count: ids.length })} disabled={none} onConfirm={() => remove.mutate(ids, { onSuccess: clear })} okText={t('common.confirm')} cancelText={t('infra.cancel')}>
          <Button danger disabled={none}>
            {t('infra.remove')}
          </Button>
        </Popconfirm>
      </>
    );
  };

  return (
    <Card title={t('menu.nodesList')}>
      <DataTable<Node>
        queryKey={nodeKeys.all}
        fetch={fetchNodes}
        columns={columns}
        rowKey="id"
        refetchInterval={NODE_LIST_REFRESH_MS}
        filters={
          <>
            <SelectFilter name="zoneID" placeholder={t('infra.zone')} options={zones} />
            <TextFilter name="keyword" placeholder={t('nodes.searchKeyword')} />
            <SelectFilter name="status" placeholder={t('nodes.status')} options={NODE_STATUS_NAMES.map((s) => ({ value: s, label: t(`nodeStatus.${s}`) }))} />
          </>
        }
        batch={batch}
        toolbar={
          canEdit ? (
            <Button type="primary" onClick={() => setOpen({ kind: 'form' })}>
              {t('infra.create')}
            </Button>
          ) : null
        }
      />
      {open?.kind === 'form' ? <NodeFormModal node={open.node} onClose={close} /> : null}
      {open?.kind === 'enrol' ? <EnrolmentModal node={open.node} onClose={close} /> : null}
      {open?.kind === 'commands' ? <NodeCommandsModal node={open.node} onClose={close} /> : null}
      {open?.kind === 'system' ? <NodeSystemDrawer node={open.node} onClose={close} /> : null}
      {open?.kind === 'subNodes' ? <SubNodesModal node={open.node} canEdit={canEdit} onClose={close} /> : null}
      {open?.kind === 'monitor' ? <NodeMonitorModal ids={open.ids} node={open.node} onDone={open.clear} onClose={close} /> : null}
      {open?.kind === 'geneva' ? <NodeGenevaModal ids={open.ids} node={open.node} onDone={open.clear} onClose={close} /> : null}
      {open?.kind === 'memo' ? <NodeMemoModal ids={open.ids} onDone={open.clear} onClose={close} /> : null}
      {open?.kind === 'move' ? <MoveZoneModal ids={open.ids} onDone={open.clear} onClose={close} /> : null}
    </Card>
  );
}
