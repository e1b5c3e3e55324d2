import { Button, Drawer, Form, Modal, Space, Switch, Tag, type TableColumnsType } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type Page } from '../../components/data-table';
import { TextFilter } from '../../components/filter-bar';
import type { ListQuery } from '../../components/list-params';
import { OriginFields } from './origin-fields';
import { RemoveLink } from './remove-link';
import { useSiteMutation } from './use-site-mutation';

type OriginRow = { id: number; host: string; port: number; weight: number; backup: boolean; enabled: boolean };

/** The calls behind one origin list: a domain's or a layer-4 port's. */
export type OriginCalls<R, I> = {
  list: (query: ListQuery) => Promise<Page<R>>;
  add: (origin: I) => Promise<unknown>;
  update: (origin: Partial<I> & { id: number }) => Promise<unknown>;
  remove: (ids: number[]) => Promise<unknown>;
};

/**
 * A list of origins in a drawer: paged, searched, sorted; add, edit, enable or disable, remove (one stays enabled:
 * 401008). `header` goes above the list; `columns` and `fields` add what this kind of origin has beyond host, port, weight and backup.
 */
export function OriginListDrawer<R extends OriginRow, I extends { host: string }>(props: {
  title: string;
  scope: string;
  listKey: readonly unknown[];
  refresh: readonly (readonly unknown[])[];
  calls: OriginCalls<R, I>;
  newOrigin: I;
  editable: boolean;
  onClose: () => void;
  columns?: TableColumnsType<R>;
  fields?: ReactNode;
  /** Shown above the list (a domain's settings, say). */
  header?: ReactNode;
}) {
  const { t } = useTranslation();
  const { calls, refresh, editable } = props;
  const [editing, setEditing] = useState<R | 'new'>();
  const [form] = Form.useForm<{ origin: I }>();
  const close = () => setEditing(undefined);
  const add = useSiteMutation({ fn: calls.add, success: 'createSuccess', refresh, done: close });
  const update = useSiteMutation({ fn: calls.update, success: 'updateSuccess', refresh, done: close });
  const remove = useSiteMutation({ fn: calls.remove, success: 'removeSuccess', refresh });
  const open = (target: R | 'new') => {
    form.setFieldsValue({ origin: target === 'new' ? props.newOrigin : target } as never);
    setEditing(target);
  };
  const save = ({ origin }: { origin: I }) => {
    const u = { ...origin, host: origin.host.trim() };
    if (editing === 'new') add.mutate(u);
    else if (editing) update.mutate({ ...u, id: editing.id });
  };
  const columns: TableColumnsType<R> = [
    { key: 'host', title: t('domains.host'), dataIndex: 'host', sorter: true },
    { key: 'port', title: t('domains.port'), dataIndex: 'port', sorter: true },
    { key: 'weight', title: t('domains.weight'), dataIndex: 'weight', sorter: true },
    ...(props.columns ?? []),
    { key: 'backup', title: t('domains.backup'), render: (_, u) => (u.backup ? <Tag color="blue">{t('common.yes')}</Tag> : t('common.no')) },
    {
      key: 'enabled',
      title: t('domains.enabled'),
      render: (_, u) => <Switch size="small" checked={u.enabled} disabled={!editable} onChange={(enabled) => update.mutate({ id: u.id, enabled } as never)} />,
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
    <Drawer open size="large" title={props.title} onClose={props.onClose}>
      {props.header}
      <DataTable<R>
        scope={props.scope}
        queryKey={props.listKey}
        fetch={calls.list}
        filters={<TextFilter scope={props.scope} name="keyword" placeholder={t('domainSettings.originKeyword')} />}
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
          {props.fields}
        </Form>
      </Modal>
    </Drawer>
  );
}
