import { Button, Drawer, Form, Modal, Space, Switch, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/data-table';
import { TextFilter } from '../../components/filter-bar';
import { ORIGIN_DEFAULTS, OriginFields } from '../sites/origin-fields';
import { RemoveLink } from '../sites/remove-link';
import { useSiteMutation } from '../sites/use-site-mutation';
import { portsApi, type Port, type PortUpstream, type PortUpstreamInput } from './api';

/** The origins of one layer-4 port: paged, searched, sorted; add, edit, enable, remove (one stays enabled: 401008). */
export function PortOriginsDrawer({ siteId, port, editable, onClose }: { siteId: number; port: Port; editable: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<PortUpstream | 'new'>();
  const [form] = Form.useForm<{ origin: PortUpstreamInput }>();
  const refresh = [['user-site-ports', siteId]];
  const close = () => setEditing(undefined);
  const add = useSiteMutation({ fn: (u: PortUpstreamInput) => portsApi.addUpstreams(siteId, port.id, [u]), success: 'createSuccess', refresh, done: close });
  const update = useSiteMutation({
    fn: (u: Partial<PortUpstreamInput> & { id: number }) => portsApi.updateUpstream(siteId, port.id, u),
    success: 'updateSuccess',
    refresh,
    done: close,
  });
  const remove = useSiteMutation({ fn: (ids: number[]) => portsApi.removeUpstreams(siteId, port.id, ids), success: 'removeSuccess', refresh });
  const open = (target: PortUpstream | 'new') => {
    form.setFieldsValue({ origin: target === 'new' ? { host: '', ...ORIGIN_DEFAULTS } : target });
    setEditing(target);
  };
  const save = ({ origin }: { origin: PortUpstreamInput }) => {
    const u = { ...origin, host: origin.host.trim() };
    if (editing === 'new') add.mutate(u);
    else if (editing) update.mutate({ ...u, id: editing.id });
  };
  const columns: TableColumnsType<PortUpstream> = [
    { key: 'host', title: t('domains.host'), dataIndex: 'host', sorter: true },
    { key: 'port', title: t('domains.port'), dataIndex: 'port', sorter: true },
    { key: 'weight', title: t('domains.weight'), dataIndex: 'weight', sorter: true },
    { key: 'backup', title: t('domains.backup'), render: (_, u) => (u.backup ? <Tag color="blue">{t('common.yes')}</Tag> : t('common.no')) },
    {
      key: 'enabled',
      title: t('domains.enabled'),
      render: (_, u) => <Switch size="small" checked={u.enabled} disabled={!editable} onChange={(enabled) => update.mutate({ id: u.id, enabled })} />,
    },
    {
      key: 'actions',
      title: t('sites.actions'),
      render: (_, u) =>
        editable ? (
          <Space>
            <Button size="small" type="link" onClick={() => open(u)}>
              {t('sites.edit')}
            </Button>
            <RemoveLink name={`${u.host}:${u.port}`} onConfirm={() => remove.mutate([u.id])} />
          </Space>
        ) : null,
    },
  ];
  return (
    <Drawer open size="large" title={t('l4Ports.originsOf', { port: port.port })} onClose={onClose}>
      <DataTable<PortUpstream>
        scope="portOrigins"
        queryKey={[...refresh[0], 'upstreams', port.id]}
        fetch={(query) => portsApi.upstreams(siteId, port.id, query)}
        columns={columns}
        rowKey="id"
        filters={<TextFilter scope="portOrigins" name="keyword" placeholder={t('domainSettings.originKeyword')} />}
        toolbar={
          editable ? (
            <Button type="primary" onClick={() => open('new')}>
              {t('domains.addOrigin')}
            </Button>
          ) : null
        }
      />
      <Modal
        open={editing !== undefined}
        width={640}
        title={t(editing === 'new' ? 'domains.addOrigin' : 'domains.editOrigin')}
        onCancel={close}
        onOk={() => form.submit()}
        confirmLoading={add.isPending || update.isPending}
        forceRender
      >
        <Form form={form} layout="vertical" requiredMark={false} onFinish={save}>
          <OriginFields name={['origin']} />
        </Form>
      </Modal>
    </Drawer>
  );
}
