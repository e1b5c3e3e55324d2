import { Button, Card, Space, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { DataTable } from '../../components/data-table';
import { TextFilter } from '../../components/filter-bar';
import { formatDate } from '../../lib/dates';
import { AssignZonesModal } from './assign-zones-modal';
import { fetchZones, useRemoveZone, zoneKeys, type Zone } from './queries';
import { ZoneFormModal } from './zone-form-modal';
import { ZoneSettingsDrawer } from './zone-settings-drawer';
import { RemoveButton } from '../../components/remove-button';

type Open = { kind: 'form'; zone?: Zone } | { kind: 'settings'; zone: Zone } | { kind: 'assign' };

export default function ZonesPage() {
  const { t } = useTranslation();
  const canEdit = useCan()('zones.edit');
  const [open, setOpen] = useState<Open>();
  const remove = useRemoveZone(() => toast.success(t('infra.removeSuccess')));
  const columns: TableColumnsType<Zone> = [
    { key: 'name', dataIndex: 'name', title: t('infra.name'), sorter: true },
    { key: 'regions', dataIndex: 'regions', title: t('zones.regions') },
    { key: 'nodeCount', dataIndex: 'nodeCount', title: t('zones.nodeCount') },
    { key: 'memo', dataIndex: 'memo', title: t('infra.memo'), ellipsis: true },
    { key: 'createdAt', dataIndex: 'createdAt', title: t('infra.createdAt'), sorter: true, render: (v: string) => formatDate(v) },
    {
      key: 'actions',
      title: t('infra.actions'),
      render: (_, zone) => (
        <Space size="small">
          <Button size="small" onClick={() => setOpen({ kind: 'settings', zone })}>
            {t('zones.settings')}
          </Button>
          {canEdit ? (
            <>
              <Button size="small" onClick={() => setOpen({ kind: 'form', zone })}>
                {t('infra.edit')}
              </Button>
              <RemoveButton name={zone.name} onConfirm={() => remove.mutate(zone.id)} />
            </>
          ) : null}
        </Space>
      ),
    },
  ];
  return (
    <Card title={t('menu.zonesList')}>
      <DataTable<Zone>
        queryKey={zoneKeys.all}
        fetch={fetchZones}
        columns={columns}
        rowKey="id"
        filters={<TextFilter name="name" placeholder={t('infra.searchName')} />}
        toolbar={
          canEdit ? (
            <>
              <Button onClick={() => setOpen({ kind: 'assign' })}>{t('zones.assign')}</Button>
              <Button type="primary" onClick={() => setOpen({ kind: 'form' })}>
                {t('infra.create')}
              </Button>
            </>
          ) : null
        }
      />
      {open?.kind === 'form' ? <ZoneFormModal zone={open.zone} onClose={() => setOpen(undefined)} /> : null}
      {open?.kind === 'settings' ? <ZoneSettingsDrawer zone={open.zone} onClose={() => setOpen(undefined)} /> : null}
      {open?.kind === 'assign' ? <AssignZonesModal onClose={() => setOpen(undefined)} /> : null}
    </Card>
  );
}
