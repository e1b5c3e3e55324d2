import { domainSchemas } from '@edgekeep/contract';
import { Button, Drawer, Form, Input, InputNumber, Modal, Space, Switch, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sitesApi, type Domain, type Upstream, type UpstreamInput } from '../../api/sites';
import { DataTable } from '../../components/data-table';
import { TextFilter } from '../../components/filter-bar';
import { domainsApi } from '../domains/api';
import { ORIGIN_DEFAULTS, OriginFields } from './origin-fields';
import { keys } from './query-keys';
import { useSiteMutation } from './use-site-mutation';
import { RemoveLink } from './remove-link';

/** The origins of one domain: list, add, edit, enable or disable, remove (a domain keeps one enabled: 401008). */
export function OriginsDrawer({ siteId, domain, editable, onClose }: { siteId: number; domain: Domain; editable: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<Upstream | 'new'>();
  const [form] = Form.useForm<{ origin: UpstreamInput }>();
  const listKey = [...keys.domains(siteId), 'upstreams', domain.id];
  const refresh = [keys.domains(siteId)];
  const close = () => setEditing(undefined);
  const add = useSiteMutation({ fn: (u: UpstreamInput) => sitesApi.addUpstreams(siteId, domain.id, [u]), success: 'createSuccess', refresh, done: close });
  const update = useSiteMutation({
    fn: (u: Partial<UpstreamInput> & { id: number }) => sitesApi.updateUpstream(siteId, domain.id, u),
    success: 'updateSuccess',
    refresh,
    done: close,
  });
  const remove = useSiteMutation({ fn: (ids: number[]) => sitesApi.removeUpstreams(siteId, domain.id, ids), success: 'removeSuccess', refresh });
  const open = (target: Upstream | 'new') => {
    form.setFieldsValue({ origin: target === 'new' ? { host: '', ...ORIGIN_DEFAULTS, keepalive: 16, hash: '' } : target });
    setEditing(target);
  };
  const save = ({ origin }: { origin: UpstreamInput }) => {
    const u = { ...origin, host: origin.host.trim() };
    if (editing === 'new') add.mutate(u);
    else if (editing) update.mutate({ ...u, id: editing.id });
  };
  const columns: TableColumnsType<Upstream> = [
    { key: 'host', title: t('domains.host'), dataIndex: 'host', sorter: true },
    { key: 'port', title: t('domains.port'), dataIndex: 'port', sorter: true },
    { key: 'weight', title: t('domains.weight'), dataIndex: 'weight', sorter: true },
    { key: 'keepalive', title: t('domainSettings.keepalive'), dataIndex: 'keepalive' },
    { key: 'backup', title: t('domains.backup'), render: (_, u) => (u.backup ? <Tag color="blue">{t('common.yes')}</Tag> : t('common.no')) },
    {
      key: 'enabled',
      title: t('domains.enabled'),
      render: (_, u) => (
        <Switch size="small" checked={u.enabled} disabled={!editable} onChange={(enabled) => update.mutate({ id: u.id, enabled })} />
      ),
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
    <Drawer open size="large" title={t('domains.originsDrawer', { name: domain.name })} onClose={onClose}>
      <DataTable<Upstream>
        scope="origins"
        queryKey={listKey}
        fetch={(query) => domainsApi.upstreams(siteId, domain.id, query)}
        filters={<TextFilter scope="origins" name="keyword" placeholder={t('domainSettings.originKeyword')} />}
        columns={columns}
        rowKey="id"
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
          <Space align="start">
            <Form.Item name={['origin', 'keepalive']} label={t('domainSettings.keepalive')} extra={t('domainSettings.keepaliveHint')}>
              <InputNumber min={0} max={1000} precision={0} style={{ width: 140 }} />
            </Form.Item>
            <Form.Item
              name={['origin', 'hash']}
              label={t('domainSettings.hashKey')}
              extra={t('domainSettings.hashKeyHint')}
              rules={[{ validator: (_, v) => (!v || domainSchemas.upstreamInput.shape.hash.safeParse(v).success ? Promise.resolve() : Promise.reject(new Error(t('validation.wrongFormat')))) }]}
            >
              <Input placeholder="$remote_addr" style={{ width: 240 }} />
            </Form.Item>
          </Space>
        </Form>
      </Modal>
    </Drawer>
  );
}
