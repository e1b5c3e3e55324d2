import { useQuery } from '@tanstack/react-query';
import { Form, Input, Select, Space, Table, Tag } from 'antd';
import { edge } from '@edgekeep/contract';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { useFormRules } from '../../components/form-rules';
import { modules, siteModuleKeys, type HeaderInput, type HeaderItem } from './queries';
import { RowActions, RowEditSubmit, useRowEdit } from './row-edit';
import { useModuleMutation } from './use-module-mutation';

/** Spec §8: custom-header calls show 101025 with the override 10102502 (duplicate keys not allowed). */
export const HEADER_OVERRIDE = 10102502;

/** The headers of a custom-header module: set or removed, on the request to the origin or the response. */
export function HeadersPanel({ siteId, moduleId }: { siteId: number; moduleId: number }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const editable = useCan()('sites.edit');
  const [form] = Form.useForm<HeaderInput>();
  const key = siteModuleKeys.items(siteId, 'customHeader', moduleId);
  const list = useQuery({ queryKey: key, queryFn: () => modules.headers(siteId, moduleId) });
  const refresh = [key, siteModuleKeys.list(siteId, 'customHeader')];
  const edit = useRowEdit(form, (h: HeaderItem): HeaderInput => ({ type: h.type, action: h.action, name: h.name, value: h.value }));
  const save = useModuleMutation({
    fn: (h: HeaderInput) => modules.saveHeader(siteId, moduleId, edit.body(h)),
    success: edit.editing ? 'updateSuccess' : 'createSuccess',
    refresh,
    done: edit.stop,
    overrideCode: HEADER_OVERRIDE,
  });
  const remove = useModuleMutation({ fn: (ids: number[]) => modules.removeHeaders(siteId, moduleId, ids), success: 'removeSuccess', refresh, overrideCode: HEADER_OVERRIDE });
  const nameRule = { validator: (_: unknown, v?: string) => (!v || edge.headerName.safeParse(v).success ? Promise.resolve() : Promise.reject(new Error(t('validation.wrongFormat')))) };
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {editable ? (
        <Form<HeaderInput> form={form} layout="inline" initialValues={{ type: 'response', action: 'set' }} onFinish={(v) => save.mutate({ ...v, value: v.value ?? '' })} onFinishFailed={() => toast.error(t('validation.checkForm'))}>
          <Form.Item name="type">
            <Select style={{ width: 180 }} options={[{ value: 'request', label: t('siteModules.toOrigin') }, { value: 'response', label: t('siteModules.toVisitor') }]} />
          </Form.Item>
          <Form.Item name="action">
            <Select style={{ width: 110 }} options={[{ value: 'set', label: t('siteModules.set') }, { value: 'remove', label: t('siteModules.removeHeader') }]} />
          </Form.Item>
          <Form.Item name="name" rules={[rules.required, nameRule]}>
            <Input placeholder={t('siteModules.headerName')} data-testid="header-name" />
          </Form.Item>
          <Form.Item name="value" rules={[{ max: 256, message: t('validation.wrongFormat') }]}>
            <Input placeholder={t('siteModules.headerValue')} data-testid="header-value" />
          </Form.Item>
          <RowEditSubmit edit={edit} pending={save.isPending} testId="header-add" />
        </Form>
      ) : null}
      <Table
        rowKey="id"
        loading={list.isFetching}
        dataSource={list.data ?? []}
        pagination={false}
        columns={[
          { key: 'type', title: t('siteModules.side'), render: (_, h) => <Tag>{t(h.type === 'request' ? 'siteModules.toOrigin' : 'siteModules.toVisitor')}</Tag> },
          { key: 'action', title: t('siteModules.action'), render: (_, h) => t(h.action === 'set' ? 'siteModules.set' : 'siteModules.removeHeader') },
          { key: 'name', title: t('siteModules.headerName'), dataIndex: 'name' },
          { key: 'value', title: t('siteModules.headerValue'), dataIndex: 'value' },
          { key: 'actions', title: t('sites.actions'), render: (_, h) => (editable ? <RowActions name={h.name} onEdit={() => edit.start(h)} onRemove={() => remove.mutate([h.id])} /> : null) },
        ]}
      />
    </Space>
  );
}
