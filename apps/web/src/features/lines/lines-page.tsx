import { Button, Card, Empty, Select, Space, Tabs, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { DataTable } from '../../components/data-table';
import { useListParams } from '../../components/list-params';
import { useZoneNodes } from '../nodes/queries';
import { chosenZone, useZoneOptions } from '../zones/use-meta-zones';
import { GroupFormModal } from './group-form-modal';
import { LINE_KEYS } from './line-label';
import { fetchGroups, lineKeys, useRemoveGroup, type Group } from './queries';
import { ResolutionsTable } from './resolutions-table';
import { RemoveButton } from '../../components/remove-button';

type Open = { group?: Group };

/** The resolution groups (lines) of the zone chosen at the top, kept in the URL as zoneID. */
export default function LinesPage() {
  const { t } = useTranslation();
  const canEdit = useCan()('lines.edit');
  const zones = useZoneOptions();
  const list = useListParams();
  const zoneID = chosenZone({ zoneID: list.filters.zoneID, zones });
  const [open, setOpen] = useState<Open>();
  const [tab, setTab] = useState('groups');
  const nodes = useZoneNodes(zoneID);
  const nodeOptions = (nodes.data ?? []).map((n) => ({ value: n.id, label: `${n.name} (${n.ip})` }));
  const nodeName = (id: number) => nodeOptions.find((o) => o.value === id)?.label ?? `#${id}`;
  const remove = useRemoveGroup(() => toast.success(t('infra.removeSuccess')));
  const columns: TableColumnsType<Group> = [
    { key: 'name', dataIndex: 'name', title: t('infra.name') },
    { key: 'line', dataIndex: 'line', title: t('lines.line'), render: (l: Group['line']) => t(LINE_KEYS[l]) },
    { key: 'priority', dataIndex: 'priority', title: t('lines.priority') },
    { key: 'dnsResolve', dataIndex: 'dnsResolve', title: t('lines.dnsResolve'), render: (v: boolean) => <Tag color={v ? 'green' : 'default'}>{t(v ? 'common.yes' : 'common.no')}</Tag> },
    { key: 'nodeIDs', dataIndex: 'nodeIDs', title: t('lines.nodes'), render: (ids: number[]) => ids.map((id) => <Tag key={id}>{nodeName(id)}</Tag>) },
    {
      key: 'actions',
      title: t('infra.actions'),
      render: (_, group) =>
        canEdit ? (
          <Space size="small">
            <Button size="small" onClick={() => setOpen({ group })}>
              {t('infra.edit')}
            </Button>
            <RemoveButton name={group.name} onConfirm={() => remove.mutate(group)} />
          </Space>
        ) : null,
    },
  ];
  const zonePicker = (
    <Select style={{ minWidth: 200 }} placeholder={t('infra.chooseZone')} options={zones} value={zoneID} onChange={(v) => list.update({ zoneID: v })} data-testid="lines-zone" />
  );
  return (
    <Card title={t('menu.resolutionTitle')}>
      {zoneID === undefined ? (
        <Space orientation="vertical" size="large" style={{ width: '100%' }}>
          {zonePicker}
          <Empty description={t('infra.chooseZoneFirst')} />
        </Space>
      ) : (
        <Tabs
          activeKey={tab}
          onChange={setTab}
          items={[
            {
              key: 'groups',
              label: t('nodeExtras.groupsTab'),
              children: (
                <DataTable<Group>
                  queryKey={lineKeys.groupsOf(zoneID)}
                  fetch={(q) => fetchGroups(zoneID, q)}
                  columns={columns}
                  rowKey="id"
                  filters={zonePicker}
                  toolbar={
                    canEdit ? (
                      <Button type="primary" onClick={() => setOpen({})}>
                        {t('infra.create')}
                      </Button>
                    ) : null
                  }
                />
              ),
            },
            { key: 'resolutions', label: t('nodeExtras.resolutionsTab'), children: <ResolutionsTable zoneID={zoneID} zonePicker={zonePicker} /> },
          ]}
        />
      )}
      {open && zoneID !== undefined ? <GroupFormModal zoneID={zoneID} group={open.group} nodeOptions={nodeOptions} onClose={() => setOpen(undefined)} /> : null}
    </Card>
  );
}
