import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Card, DatePicker, Form, Input, Modal, Popconfirm, Space, Table, Typography, type TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState, type Key } from 'react';
import { useTranslation } from 'react-i18next';
import { apiDocsUrl } from '../../api/url';
import { toast } from '../../app/feedback';
import { useTier } from '../../app/use-tier';
import { useFormRules } from '../../components/form-rules';
import { DATE_FORMATS, formatDate } from '../../lib/dates';
import { apiTokens, refreshApiTokens, useApiTokens, type ApiTokenItem, type CreatedApiToken } from './queries';

type Fields = { name: string; expiredAt?: Dayjs | null };

/** The account's API tokens: a new one is shown once, with a copy button; tokens are listed and deleted. */
export default function ApiTokensPage() {
  const { t } = useTranslation();
  const tier = useTier();
  const rules = useFormRules();
  const [form] = Form.useForm<Fields>();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiToken>();
  const [selected, setSelected] = useState<Key[]>([]);
  const tokens = useApiTokens(tier);
  const refresh = () => refreshApiTokens(tier);
  const create = useMutation({
    mutationFn: (v: Fields) => apiTokens.create(tier, { name: v.name.trim(), ...(v.expiredAt ? { expiredAt: v.expiredAt.toISOString() } : {}) }),
    onSuccess: (token) => {
      toast.success(t('message.createSuccess'));
      setCreating(false);
      setCreated(token);
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (ids: number[]) => apiTokens.remove(tier, ids),
    onSuccess: () => {
      toast.success(t('message.removeSuccess'));
      setSelected([]);
      void refresh();
    },
  });
  const columns: TableColumnsType<ApiTokenItem> = [
    { key: 'name', title: t('apiTokens.name'), dataIndex: 'name' },
    { key: 'createdAt', title: t('account.createdAt'), render: (_, r) => formatDate(r.createdAt) },
    { key: 'lastUsedAt', title: t('apiTokens.lastUsedAt'), render: (_, r) => formatDate(r.lastUsedAt) || '---' },
    { key: 'expiredAt', title: t('account.expiredAt'), render: (_, r) => formatDate(r.expiredAt) || t('account.never') },
    {
      key: 'actions',
      title: t('common.actions'),
      render: (_, r) => (
        <Popconfirm
          title={t('apiTokens.removeConfirm', { name: r.name })}
          description={t('apiTokens.removeHint')}
          okText={t('common.confirm')}
          okButtonProps={{ danger: true }}
          cancelText={t('common.cancel')}
          onConfirm={() => remove.mutateAsync([r.id])}
        >
          <Button type="link" size="small" danger>
            {t('common.remove')}
          </Button>
        </Popconfirm>
      ),
    },
  ];
  return (
    <Card
      title={t('menu.apiTokenSetting')}
      extra={
        <Typography.Link href={apiDocsUrl} target="_blank">
          {t('menu.apiDoc')}
        </Typography.Link>
      }
    >
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t('apiTokens.intro', { tier })}
        </Typography.Paragraph>
        <Space wrap>
          <Button type="primary" onClick={() => setCreating(true)}>
            {t('apiTokens.create')}
          </Button>
          <Popconfirm
            title={t('apiTokens.removeSelected', { count: selected.length })}
            description={t('apiTokens.removeHint')}
            okText={t('common.confirm')}
            okButtonProps={{ danger: true }}
            cancelText={t('common.cancel')}
            disabled={!selected.length}
            onConfirm={() => remove.mutateAsync(selected.map(Number))}
          >
            <Button danger disabled={!selected.length}>
              {t('common.removeSelected')}
            </Button>
          </Popconfirm>
        </Space>
        <Table<ApiTokenItem>
          rowKey="id"
          columns={columns}
          dataSource={tokens.data ?? []}
          loading={tokens.isFetching}
          rowSelection={{ selectedRowKeys: selected, onChange: setSelected }}
          pagination={false}
        />
      </Space>
      <Modal
        open={creating}
        title={t('apiTokens.create')}
        okText={t('common.submit')}
        cancelText={t('common.cancel')}
        onOk={() => form.submit()}
        onCancel={() => setCreating(false)}
        confirmLoading={create.isPending}
        destroyOnHidden
        forceRender
      >
        <Form<Fields> form={form} layout="vertical" onFinish={(v) => create.mutate(v)} preserve={false} data-testid="api-token-form">
          <Form.Item name="name" label={t('apiTokens.name')} rules={[rules.required, { max: 64, message: t('validation.wrongFormat') }]}>
            <Input autoComplete="off" />
          </Form.Item>
          <Form.Item name="expiredAt" label={t('account.expiredAt')} extra={t('apiTokens.expiryHint')}>
            <DatePicker showTime format={DATE_FORMATS.minute} style={{ width: '100%' }} />
          </Form.Item>
        </Form>
      </Modal>
      <Modal
        open={created !== undefined}
        title={t('apiTokens.createdTitle', { name: created?.name ?? '' })}
        closable={false}
        maskClosable={false}
        footer={
          <Button type="primary" onClick={() => setCreated(undefined)}>
            {t('apiTokens.saved')}
          </Button>
        }
      >
        <Alert type="warning" showIcon message={t('apiTokens.shownOnce')} style={{ marginBottom: 16 }} />
        <Typography.Paragraph code copyable={{ text: created?.refreshToken, tooltips: [t('common.copy'), t('common.copied')] }} data-testid="created-token">
          {created?.refreshToken}
        </Typography.Paragraph>
      </Modal>
    </Card>
  );
}
