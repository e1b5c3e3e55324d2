import { Button, Card, Empty, InputNumber, Popconfirm, Space, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../app/use-self';
import { DataTable } from '../../components/data-table';
import { formatDate } from '../../lib/dates';
import { useSitePicker } from '../sites/site-picker';
import { RemoveLink } from '../sites/remove-link';
import { useSiteMutation } from '../sites/use-site-mutation';
import { AddPortsModal } from './add-ports-modal';
import { PortOriginsDrawer } from './port-origins-drawer';
import { portKeys, ports, type Port } from './queries';

/** The user menu's layer-4 ports: the chosen site's TCP forwarding ports and their origins. */
export default function PortsPage() {
  const { t } = useTranslation();
  const can = useCan();
  const editable = can('ports.edit');
  const { siteId, picker, empty } = useSitePicker();
  const [adding, setAdding] = useState(false);
  const [origins, setOrigins] = useState<Port>();
  const [moving, setMoving] = useState<{ id: number; port: number | null }>();
  const refresh = [portKeys.list(siteId ?? 0)];
  const remove = useSiteMutation({ fn: (ids: number[]) => ports.remove(siteId!, ids), success: 'removeSuccess', refresh });
  const move = useSiteMutation({ fn: (v: { id: number; port: number }) => ports.move(siteId!, v), success: 'updateSuccess', refresh, done: () => setMoving(undefined) });
  if (!siteId) {
    return (
      <Card title={t('menu.l4Ports')} extra={picker}>
        <Empty description={empty ? t('domainSettings.noSites') : t('sites.noSite')} />
      </Card>
    );
  }
  const columns: TableColumnsType<Port> = [
    {
      key: 'port',
      title: t('l4Ports.port'),
      sorter: true,
      render: (_, p) =>
        moving?.id === p.id ? (
          <Space>
            <InputNumber size="small" aria-label="new port" min={1000} max={65000} precision={0} value={moving.port} onChange={(port) => setMoving({ id: p.id, port })} />
            <Button size="small" type="primary" disabled={!moving.port} onClick={() => move.mutate({ id: p.id, port: moving.port! })}>
              {t('l4Ports.save')}
            </Button>
            <Button size="small" onClick={() => setMoving(undefined)}>
              {t('l4Ports.cancel')}
            </Button>
          </Space>
        ) : (
          <Space>
            <Tag color="blue">TCP</Tag>
            {p.port}
            {editable ? (
              <Button size="small" type="link" onClick={() => setMoving({ id: p.id, port: p.port })}>
                {t('sites.edit')}
              </Button>
            ) : null}
          </Space>
        ),
    },
    {
      key: 'origins',
      title: t('domains.origins'),
      render: (_, p) => (
        <Button size="small" onClick={() => setOrigins(p)} aria-label={`origins ${p.port}`}>
          {p.upstreams.map((u) => `${u.host}:${u.port}`).join(', ')}
        </Button>
      ),
    },
    { key: 'createdAt', title: t('sites.createdAt'), sorter: true, render: (_, p) => formatDate(p.createdAt) },
    { key: 'actions', title: t('sites.actions'), render: (_, p) => (editable ? <RemoveLink name={String(p.port)} onConfirm={() => remove.mutate([p.id])} /> : null) },
  ];
  return (
    <Card title={t('menu.l4Ports')} extra={picker}>
      <DataTable<Port>
        key={siteId}
        queryKey={portKeys.list(siteId)}
        fetch={(query) => ports.list(siteId, query)}
        columns={columns}
        rowKey="id"
        toolbar={
          editable ? (
            <Button type="primary" onClick={() => setAdding(true)}>
              {t('l4Ports.add')}
            </Button>
          ) : null
        }
        batch={
          editable
            ? (selected, clear) => (
                <Popconfirm title={t('sites.confirmRemove')} disabled={!selected.length} onConfirm={() => remove.mutate(selected as number[], { onSuccess: clear })}>
                  <Button danger disabled={!selected.length}>
                    {t('sites.remove')}
                  </Button>
                </Popconfirm>
              )
            : undefined
        }
      />
      {adding ? <AddPortsModal siteId={siteId} onClose={() => setAdding(false)} /> : null}
      {origins ? <PortOriginsDrawer siteId={siteId} port={origins} editable={editable} onClose={() => setOrigins(undefined)} /> : null}
    </Card>
  );
}
