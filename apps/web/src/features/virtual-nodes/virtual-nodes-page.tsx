import { Button, Card, Empty, Select, Space, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { DataTable } from '../../components/data-table';
import { TextFilter } from '../../components/filter-bar';
import { useListParams } from '../../components/list-params';
import { formatDate } from '../../lib/dates';
import { useZoneNodes } from '../nodes/queries';
import { chosenZone, useZoneOptions } from '../zones/use-meta-zones';
import { fetchVirtualNodes, useRemoveVirtualNode, virtualNodeKeys, type VirtualNode } from './queries';
import { VirtualNodeModal } from './virtual-node-modal';
import { RemoveButton } from '../../components/remove-button';

/** The virtual nodes of the zone chosen at the top (kept in the URL as zoneID). */
export default function VirtualNodesPage() {
  const { t } = useTranslation();
  const canEdit = useCan()('nodes.edit');
  const zones = useZoneOptions();
  const list = useListParams();
  const zoneID = chosenZone({ zoneID: list.filters.zoneID, zones });
  const [open, setOpen] = useState<{ node?: VirtualNode }>();
  const nodes = useZoneNodes(zoneID);
  const nodeOptions = (nodes.data ?? []).filter((n) => !n.virtual).map((n) => ({ value: n.id, label: `${n.name} (${n.ip})` }));
  const remove = useRemoveVirtualNode(() => toast.success(t('infra.removeSuccess')));
  const columns: TableColumnsType<VirtualNode> = [
    { key: 'name', dataIndex: 'name', title: t('infra.name'), sorter: true },
    { key: 'nodeUID', dataIndex: 'nodeUID', title: 'UID' },
    { key: 'switchInterval', dataIndex: 'switchInterval', title: t('virtualNodes.switchInterval') },
    {
      key: 'records',
      dataIndex: 'records',
      title: t('virtualNodes.records'),
      render: (records: VirtualNode['records']) => records.map((r) => <Tag key={r.id} color={r.type === 'cname' ? 'blue' : 'default'}>{`${r.type.toUpperCase()} ${r.value}`}</Tag>),
    },
    { key: 'memo', dataIndex: 'memo', title: t('virtualNodes.memo') },
    { key: 'createdAt', dataIndex: 'createdAt', title: t('virtualNodes.createdAt'), sorter: true, render: (v: string) => formatDate(v) },
    {
      key: 'actions',
      title: t('infra.actions'),
      render: (_, node) =>
        canEdit ? (
          <Space size="small">
            <Button size="small" onClick={() => setOpen({ node })}>
              {t('infra.edit')}
            </Button>
            <RemoveButton name={node.name} onConfirm={() => remove.mutate(node)} />
          </Space>
        ) : null,
    },
  ];
  const zonePicker = <Select style={{ minWidth: 200 }} placeholder={t('infra.chooseZone')} options={zones} value={zoneID} onChange={(v) => list.update({ zoneID: v })} data-testid="vnode-zone" />;
  return (
    <Card title={t('menu.vNode')}>
      {zoneID === undefined ? (
        <Space orientation="vertical" size="large" style={{ width: '100%' }}>
          {zonePicker}
          <Empty description={t('infra.chooseZoneFirst')} />
        </Space>
      ) : (
        <DataTable<VirtualNode>
          queryKey={virtualNodeKeys.ofZone(zoneID)}
          fetch={(q) => fetchVirtualNodes(zoneID, q)}
          columns={columns}
          rowKey="id"
          filters={
            <>
              {zonePicker}
              <TextFilter name="name" placeholder={t('infra.searchName')} />
            </>
          }
          toolbar={
            canEdit ? (
              <Button type="primary" onClick={() => setOpen({})}>
                {t('infra.create')}
              </Button>
            ) : null
          }
        />
      )}
      {open && zoneID !== undefined ? <VirtualNodeModal zoneID={zoneID} node={open.node} nodeOptions={nodeOptions} onClose={() => setOpen(undefined)} /> : null}
    </Card>
  );
}
