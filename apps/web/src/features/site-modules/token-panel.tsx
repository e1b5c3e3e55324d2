import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Form, Input, InputNumber, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../app/use-self';
import { useFormRules } from '../../components/form-rules';
import { RemoveLink } from '../sites/remove-link';
import { modules, siteModuleKeys, type SignResult, type TokenAuthItem } from './queries';
import { useModuleMutation } from './use-module-mutation';

/** The URL format of signed URLs, a signer, and (scope paths) the protected path prefixes. */
export function TokenPanel({ siteId, module }: { siteId: number; module: TokenAuthItem }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const editable = useCan()('sites.edit');
  const [signed, setSigned] = useState<SignResult>();
  const key = siteModuleKeys.items(siteId, 'tokenAuth', module.id);
  const paths = useQuery({ queryKey: key, queryFn: () => modules.tokenPaths(siteId, module.id) });
  const refresh = [key, siteModuleKeys.list(siteId, 'tokenAuth')];
  const [form] = Form.useForm<{ items: string }>();
  const add = useModuleMutation({ fn: (items: string) => modules.addTokenPaths(siteId, module.id, items), success: 'createSuccess', refresh, done: () => form.resetFields() });
  const remove = useModuleMutation({ fn: (ids: number[]) => modules.removeTokenPaths(siteId, module.id, ids), success: 'removeSuccess', refresh });
  const sign = useModuleMutation({ fn: (v: { path: string; expiresIn?: number }) => modules.sign(siteId, module.id, v.path, v.expiresIn), refresh: [], done: setSigned });
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="large">
      <Alert
        type="info"
        message={t('siteModules.urlFormat')}
        description={
          <Space direction="vertical">
            <Typography.Text code>{'https://<domain><path>?expires=<unix seconds>&sign=<hex HMAC-SHA1(key, "<path>:<expires>")>'}</Typography.Text>
            <Typography.Text>{t('siteModules.urlFormatHint')}</Typography.Text>
          </Space>
        }
      />
      <Form layout="inline" onFinish={(v: { path: string; expiresIn?: number }) => sign.mutate(v)}>
        <Form.Item name="path" rules={[rules.required, { pattern: /^\/[^\s?#]*$/, message: t('validation.wrongFormat') }]}>
          <Input style={{ width: 320 }} placeholder="/videos/intro.mp4" data-testid="sign-path" />
        </Form.Item>
        <Form.Item name="expiresIn">
          <InputNumber min={60} max={31_536_000} placeholder={String(module.expiry)} addonAfter={t('siteModules.seconds')} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={sign.isPending} data-testid="sign-submit">
          {t('siteModules.sign')}
        </Button>
      </Form>
      {signed ? (
        <Typography.Paragraph copyable code data-testid="signed-url">
          {signed.url}
        </Typography.Paragraph>
      ) : null}
      {module.scope === 'paths' ? (
        <>
          <Typography.Title level={5}>{t('siteModules.protectedPaths')}</Typography.Title>
          {editable ? (
            <Form form={form} layout="inline" onFinish={(v) => add.mutate(v.items)}>
              <Form.Item name="items" rules={[rules.required]}>
                <Input.TextArea rows={3} style={{ width: 420 }} placeholder={'/videos/\n/downloads/'} />
              </Form.Item>
              <Button htmlType="submit" loading={add.isPending}>
                {t('siteModules.add')}
              </Button>
            </Form>
          ) : null}
          <Table
            rowKey="id"
            loading={paths.isFetching}
            dataSource={paths.data ?? []}
            pagination={false}
            columns={[
              { key: 'path', title: t('siteModules.path'), dataIndex: 'path' },
              { key: 'actions', title: t('sites.actions'), render: (_, p) => (editable ? <RemoveLink name={p.path} onConfirm={() => remove.mutate([p.id])} /> : null) },
            ]}
          />
        </>
      ) : null}
    </Space>
  );
}
