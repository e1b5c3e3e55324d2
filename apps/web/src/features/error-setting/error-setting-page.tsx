import { Alert, Button, Card, Form, Input, Modal, Select, Space, Typography, type TableColumnsType } from 'antd';
import { edge } from '@edgekeep/contract';
import type { z } from 'zod';
import type { clientErrorPage } from '@edgekeep/contract/schemas/client-settings';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { DataTable } from '../../components/data-table';
import { useFormRules } from '../../components/form-rules';
import { formatDate } from '../../lib/dates';
import { RemoveLink } from '../sites/remove-link';
import { errorSettingKeys, fetchDefaultErrorPages, useRemoveDefaultErrorPages, useSaveDefaultErrorPage } from './queries';

type Item = z.infer<typeof clientErrorPage>;
const TYPE_LABELS = { content: 'typeContent', redirect: 'typeRedirect', js: 'typeJs' } as const;

function PageModal({ page, onClose }: { page?: Item; onClose: () => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<edge.ErrorPage>();
  const type = Form.useWatch('type', form) ?? page?.type ?? 'content';
  const save = useSaveDefaultErrorPage();
  const pageRule = {
    validator: (_: unknown, body?: string) => {
      if (!body) return Promise.resolve();
      const ok = edge.errorPage.safeParse({ status: 400, type, body: type === 'redirect' ? body.trim() : body }).success;
      return ok ? Promise.resolve() : Promise.reject(new Error(t('validation.wrongFormat')));
    },
  };
  const finish = (v: edge.ErrorPage) =>
    save.mutate(
      { ...v, body: v.type === 'redirect' ? v.body.trim() : v.body, id: page?.id },
      {
        onSuccess: () => {
          toast.success(t(page ? 'infra.updateSuccess' : 'infra.createSuccess'));
          onClose();
        },
      },
    );
  return (
    <Modal open width={720} title={t(page ? 'errorPages.edit' : 'errorPages.add')} onCancel={onClose} onOk={() => form.submit()} confirmLoading={save.isPending}>
      <Form<edge.ErrorPage>
        form={form}
        layout="vertical"
        initialValues={page ? { status: page.status, type: page.type, body: page.body } : { type: 'content' }}
        onFinish={finish}
        onFinishFailed={() => toast.error(t('validation.checkForm'))}
      >
        <Form.Item name="status" label={t('errorPages.status')} rules={[rules.required]}>
          <Select style={{ width: 160 }} options={edge.ERROR_PAGE_STATUSES.map((s) => ({ value: s, label: String(s) }))} data-testid="default-error-status" />
        </Form.Item>
        <Form.Item name="type" label={t('errorPages.type')}>
          <Select style={{ width: 200 }} options={Object.entries(TYPE_LABELS).map(([value, label]) => ({ value, label: t(`errorPages.${label}`) }))} />
        </Form.Item>
        <Form.Item name="body" label={t(type === 'redirect' ? 'errorPages.bodyRedirect' : 'errorPages.body')} rules={[rules.required, pageRule]}>
          {type === 'redirect' ? <Input placeholder="https://www.example.com/sorry" /> : <Input.TextArea rows={8} style={{ fontFamily: 'monospace' }} data-testid="default-error-body" />}
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** systemManagement/errorSetting: the client's default error pages, served where a site has none of its own. */
export default function ErrorSettingPage() {
  const { t } = useTranslation();
  const editable = useCan()('system.edit');
  const [editing, setEditing] = useState<Item | 'new'>();
  const remove = useRemoveDefaultErrorPages();
  const columns: TableColumnsType<Item> = [
    { key: 'status', title: t('errorPages.status'), dataIndex: 'status' },
    { key: 'type', title: t('errorPages.type'), render: (_, p) => t(`errorPages.${TYPE_LABELS[p.type]}`) },
    {
      key: 'body',
      title: t('errorPages.body'),
      render: (_, p) => (
        <Typography.Text ellipsis style={{ maxWidth: 420 }} code>
          {p.body}
        </Typography.Text>
      ),
    },
    { key: 'updatedAt', title: t('sites.updatedAt'), render: (_, p) => formatDate(p.updatedAt) },
    {
      key: 'actions',
      title: t('common.actions'),
      render: (_, p) =>
        editable ? (
          <Space>
            <Button size="small" type="link" onClick={() => setEditing(p)}>
              {t('common.edit')}
            </Button>
            <RemoveLink name={p.status} onConfirm={() => remove.mutate([p.id], { onSuccess: () => toast.success(t('infra.removeSuccess')) })} />
          </Space>
        ) : null,
    },
  ];
  return (
    <Card title={t('menu.errorSetting')}>
      <Alert type="info" showIcon message={t('clientSettings.errorSettingHint')} style={{ marginBottom: 16 }} />
      <DataTable<Item>
        queryKey={errorSettingKeys.list}
        fetch={fetchDefaultErrorPages}
        columns={columns}
        rowKey="id"
        toolbar={
          editable ? (
            <Button type="primary" onClick={() => setEditing('new')} data-testid="default-error-add">
              {t('errorPages.add')}
            </Button>
          ) : null
        }
      />
      {editing ? <PageModal page={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} /> : null}
    </Card>
  );
}
