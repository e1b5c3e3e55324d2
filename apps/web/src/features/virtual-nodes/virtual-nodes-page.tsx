import { useMutation, useQuery } from '@tanstack/react-query';
import { Button, Card, Empty, Select, Space, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_PAGE_SIZE } from '@edgekeep/contract/constants';
import { infraApi } from '../../api/infra';
import { virtualNodesApi, type VirtualNode } from '../../api/virtual-nodes';
import { toast } from '../../app/feedback';
import { queryClient } from '../../app/query-client';
import { useCan } from '../../app/use-self';
import { DataTable } from '../../components/data-table';
import { TextFilter } from '../../components/filter-bar';
import { useListParams } from '../../components/list-params';
import { formatDate } from '../../lib/dates';
import { chosenZone, useZoneOptions } from '../zones/use-meta-zones';
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
  const nodes = useQuery({ queryKey: ['nodes', 'ofZone', zoneID], queryFn: () => infraApi.nodes({ zoneID, pageSize: MAX_PAGE_SIZE }), enabled: zoneID !== undefined });
  const nodeOptions = (nodes.data?.data ?? []).filter((n) => !n.virtual).map((n) => ({ value: n.id, label: `${n.name} (${n.ip})` }));
  const remove = useMutation({
    mutationFn: (node: VirtualNode) => virtualNodesApi.remove(node.zoneID, node.id),
    onSuccess: () => {
      toast.success(t('infra.removeSuccess'));
      void queryClient.invalidateQueries({ queryKey: ['virtualNodes'] });
    },
  });
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
          queryKey={['virtualNodes', zoneID]}
          fetch={(q) => virtualNodesApi.list(zoneID, q)}
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
