import { useQuery } from '@tanstack/react-query';
import { Form, Input, Select, Space, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { useFormRules } from '../../components/form-rules';
import { modules, siteModuleKeys, type RewriteInput, type RewriteItem } from './queries';
import { RowActions, RowEditSubmit, useRowEdit } from './row-edit';
import { useModuleMutation } from './use-module-mutation';

/** The rewrite rules of a module: the path (and Host) the origin gets; the visitor's URL stays. */
export function RewritePanel({ siteId, moduleId }: { siteId: number; moduleId: number }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const editable = useCan()('sites.edit');
  const [form] = Form.useForm<RewriteInput>();
  const key = siteModuleKeys.items(siteId, 'proxyRewrite', moduleId);
  const list = useQuery({ queryKey: key, queryFn: () => modules.rewriteRules(siteId, moduleId) });
  const refresh = [key, siteModuleKeys.list(siteId, 'proxyRewrite')];
  const edit = useRowEdit(form, (r: RewriteItem): RewriteInput => ({ match: r.match, source: r.source, target: r.target, host: r.host }));
  const save = useModuleMutation({ fn: (r: RewriteInput) => modules.saveRewriteRule(siteId, moduleId, edit.body(r)), success: edit.editing ? 'updateSuccess' : 'createSuccess', refresh, done: edit.stop });
  const remove = useModuleMutation({ fn: (ids: number[]) => modules.removeRewriteRules(siteId, moduleId, ids), success: 'removeSuccess', refresh });
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {editable ? (
        <Form<RewriteInput> form={form} layout="inline" initialValues={{ match: 'prefix' }} onFinish={(v) => save.mutate({ ...v, host: v.host?.trim() ?? '' })} onFinishFailed={() => toast.error(t('validation.checkForm'))}>
          <Form.Item name="match">
            <Select style={{ width: 110 }} options={(['prefix', 'regex'] as const).map((m) => ({ value: m, label: t(`siteModules.${m}`) }))} />
          </Form.Item>
          <Form.Item name="source" rules={[rules.required]}>
            <Input placeholder="/api/" />
          </Form.Item>
          <Form.Item name="target" rules={[rules.required, { pattern: /^\/\S*$/, message: t('validation.wrongFormat') }]}>
            <Input placeholder="/v2/api/" />
          </Form.Item>
          <Form.Item name="host">
            <Input placeholder={t('siteModules.originHost')} />
          </Form.Item>
          <RowEditSubmit edit={edit} pending={save.isPending} />
        </Form>
      ) : null}
      <Table
        rowKey="id"
        loading={list.isFetching}
        dataSource={list.data ?? []}
        pagination={false}
        columns={[
          { key: 'match', title: t('siteModules.match'), render: (_, r) => t(`siteModules.${r.match}`) },
          { key: 'source', title: t('siteModules.source'), render: (_, r) => <Typography.Text code>{r.source}</Typography.Text> },
          { key: 'target', title: t('siteModules.target'), dataIndex: 'target' },
          { key: 'host', title: t('siteModules.originHost'), render: (_, r) => r.host || '—' },
          { key: 'actions', title: t('sites.actions'), render: (_, r) => (editable ? <RowActions name={r.source} onEdit={() => edit.start(r)} onRemove={() => remove.mutate([r.id])} /> : null) },
        ]}
      />
    </Space>
  );
}
