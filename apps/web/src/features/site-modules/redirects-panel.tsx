import { Button, Form, Input, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { DataTable } from '../../components/data-table';
import { useFormRules } from '../../components/form-rules';
import { modules, siteModuleKeys, type RedirectInput, type RedirectItem } from './queries';
import { RowActions, RowEditSubmit, useRowEdit } from './row-edit';
import { useModuleMutation } from './use-module-mutation';

const MATCHES = ['exact', 'prefix', 'regex'] as const;

/** The redirect rules of a module (tried in order, at most 3000), and a text replacement over every target. */
export function RedirectsPanel({ siteId, moduleId }: { siteId: number; moduleId: number }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const editable = useCan()('sites.edit');
  const [form] = Form.useForm<RedirectInput>();
  const [replace] = Form.useForm<{ from: string; to: string }>();
  const key = siteModuleKeys.items(siteId, 'urlRedirect', moduleId);
  const refresh = [key, siteModuleKeys.list(siteId, 'urlRedirect')];
  const edit = useRowEdit(form, (r: RedirectItem): RedirectInput => ({ match: r.match, source: r.source, target: r.target, code: r.code }));
  const save = useModuleMutation({ fn: (r: RedirectInput) => modules.saveUrl(siteId, moduleId, edit.body(r)), success: edit.editing ? 'updateSuccess' : 'createSuccess', refresh, done: edit.stop });
  const remove = useModuleMutation({ fn: (ids: number[]) => modules.removeUrls(siteId, moduleId, ids), success: 'removeSuccess', refresh });
  const replaced = useModuleMutation({ fn: (v: { from: string; to: string }) => modules.replaceUrl(siteId, moduleId, v.from, v.to), success: 'updateSuccess', refresh });
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="large">
      {editable ? (
        <Form<RedirectInput> form={form} layout="inline" initialValues={{ match: 'exact', code: 301 }} onFinish={(v) => save.mutate(v)} onFinishFailed={() => toast.error(t('validation.checkForm'))}>
          <Form.Item name="match">
            <Select style={{ width: 110 }} options={MATCHES.map((m) => ({ value: m, label: t(`siteModules.${m}`) }))} />
          </Form.Item>
          <Form.Item name="source" rules={[rules.required]}>
            <Input placeholder="/old-path" data-testid="redirect-source" />
          </Form.Item>
          <Form.Item name="target" rules={[rules.required, { pattern: /^(\/|https?:\/\/)\S*$/, message: t('validation.wrongFormat') }]}>
            <Input placeholder="https://www.example.com/new" data-testid="redirect-target" />
          </Form.Item>
          <Form.Item name="code">
            <Select style={{ width: 90 }} options={[{ value: 301, label: '301' }, { value: 302, label: '302' }]} />
          </Form.Item>
          <RowEditSubmit edit={edit} pending={save.isPending} />
        </Form>
      ) : null}
      <Typography.Text type="secondary">{t('siteModules.redirectHint')}</Typography.Text>
      <DataTable<RedirectItem>
        scope="urls"
        queryKey={key}
        fetch={(query) => modules.urls(siteId, moduleId, query)}
        rowKey="id"
        columns={[
          { key: 'match', title: t('siteModules.match'), render: (_, r) => t(`siteModules.${r.match}`) },
          { key: 'source', title: t('siteModules.source'), render: (_, r) => <Typography.Text code>{r.source}</Typography.Text> },
          { key: 'target', title: t('siteModules.target'), dataIndex: 'target' },
          { key: 'code', title: t('siteModules.code'), dataIndex: 'code' },
          { key: 'actions', title: t('sites.actions'), render: (_, r) => (editable ? <RowActions name={r.source} onEdit={() => edit.start(r)} onRemove={() => remove.mutate([r.id])} /> : null) },
        ]}
      />
      {editable ? (
        <Form form={replace} layout="inline" onFinish={(v) => replaced.mutate({ from: v.from, to: v.to ?? '' })}>
          <Form.Item name="from" label={t('siteModules.replaceFrom')} rules={[rules.required]}>
            <Input placeholder="https://old.example.com" />
          </Form.Item>
          <Form.Item name="to" label={t('siteModules.replaceTo')}>
            <Input placeholder="https://new.example.com" />
          </Form.Item>
          <Button htmlType="submit" loading={replaced.isPending}>
            {t('siteModules.replace')}
          </Button>
        </Form>
      ) : null}
    </Space>
  );
}
