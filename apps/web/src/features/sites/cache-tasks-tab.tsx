import { Button, Card, Form, Input, Popconfirm, Radio, Space, Tag, Typography, type TableColumnsType } from 'antd';
import { cacheTaskBody, urlPrefixPurgeBody, urlPurgeBody } from '@edgekeep/contract/schemas/site-settings';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { DataTable } from '../../components/data-table';
import { useFormRules, zodRule } from '../../components/form-rules';
import { formatDate } from '../../lib/dates';
import { useSiteMutation } from './use-site-mutation';
import { siteKeys, siteOptionCalls, type CacheTask, type UrlPurge } from './queries';

const STATUS_COLORS = { queued: 'default', running: 'processing', done: 'success', failed: 'error', noNodes: 'warning' } as const;

function PurgeCard({ siteId }: { siteId: number }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<{ type: 1 | 2; urls: string }>();
  const type = Form.useWatch('type', form) ?? 1;
  const urlsRule = zodRule((type === 2 ? urlPrefixPurgeBody : urlPurgeBody).shape.urls, t('validation.wrongFormat'));
  const purged = (r: { nodes: number }) => toast.info(t('siteOptions.purgeQueued', { nodes: r.nodes }));
  const all = useSiteMutation({ fn: () => siteOptionCalls.purgeAll(siteId), success: 'updateSuccess', refresh: [], done: purged });
  const urls = useSiteMutation({ fn: (v: UrlPurge) => siteOptionCalls.purgeUrls(siteId, v), success: 'updateSuccess', refresh: [], done: purged });
  return (
    <Card size="small" title={t('siteOptions.purge')} extra={
      <Popconfirm title={t('siteOptions.purgeAllConfirm')} onConfirm={() => all.mutate(undefined)}>
        <Button danger loading={all.isPending} data-testid="purge-all">{t('siteOptions.purgeAll')}</Button>
      </Popconfirm>
    }>
      <Form form={form} layout="vertical" requiredMark={false} initialValues={{ type: 1 }} onFinish={(v) => urls.mutate(v)} onFinishFailed={() => toast.error(t('validation.checkForm'))}>
        <Form.Item name="type">
          <Radio.Group options={[{ value: 1, label: t('siteOptions.purgeExact') }, { value: 2, label: t('siteOptions.purgePrefix') }]} />
        </Form.Item>
        <Form.Item name="urls" extra={t(type === 2 ? 'cache.urlsHint' : 'siteOptions.urlsHint')} rules={[rules.required, urlsRule]}>
          <Input.TextArea rows={3} placeholder={type === 2 ? 'https://www.example.com/images/' : 'https://www.example.com/logo.png'} data-testid="purge-urls" />
        </Form.Item>
        <Button htmlType="submit" loading={urls.isPending}>{t('siteOptions.purgeUrls')}</Button>
      </Form>
    </Card>
  );
}

/** Cache tasks: purges by site, URL or prefix, and warm-cache tasks with how far the nodes got. */
export function CacheTasksTab({ siteId }: { siteId: number }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const editable = useCan()('sites.edit');
  const [form] = Form.useForm<{ urls: string }>();
  const warm = useSiteMutation({
    fn: (urls: string) => siteOptionCalls.createCacheTask(siteId, urls),
    success: 'createSuccess',
    refresh: [siteKeys.cacheTasks(siteId)],
    done: () => form.resetFields(),
  });
  const columns: TableColumnsType<CacheTask> = [
    { key: 'createdAt', title: t('sites.createdAt'), render: (_, r) => formatDate(r.createdAt) },
    { key: 'type', title: t('siteOptions.taskType'), render: () => t('nodeCommand.warmCache') },
    { key: 'urls', title: t('siteOptions.urls'), render: (_, r) => <Typography.Paragraph ellipsis={{ rows: 2, expandable: true }} style={{ margin: 0 }}>{r.urls.join('\n')}</Typography.Paragraph> },
    { key: 'status', title: t('sites.status'), render: (_, r) => <Tag color={STATUS_COLORS[r.status]}>{t(`siteOptions.taskStatus.${r.status}`)}</Tag> },
    { key: 'nodes', title: t('siteOptions.nodes'), render: (_, r) => `${r.finishedNodes} / ${r.nodes}` },
    { key: 'messages', title: t('siteOptions.result'), render: (_, r) => r.messages.join('; ') || '-' },
  ];
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      {editable ? <PurgeCard siteId={siteId} /> : null}
      {editable ? (
        <Card size="small" title={t('siteOptions.warmTitle')}>
          <Form form={form} layout="vertical" requiredMark={false} onFinish={(v) => warm.mutate(v.urls)} onFinishFailed={() => toast.error(t('validation.checkForm'))}>
            <Form.Item name="urls" extra={t('siteOptions.warmHint')} rules={[rules.required, zodRule(cacheTaskBody.shape.urls, t('validation.wrongFormat'))]}>
              <Input.TextArea rows={3} placeholder="https://www.example.com/index.html" data-testid="warm-urls" />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={warm.isPending} data-testid="warm-submit">{t('siteOptions.warm')}</Button>
          </Form>
        </Card>
      ) : null}
      <Card size="small" title={t('siteOptions.tasks')}>
        <DataTable<CacheTask> queryKey={siteKeys.cacheTasks(siteId)} fetch={(query) => siteOptionCalls.cacheTasks(siteId, query)} columns={columns} rowKey="id" refetchInterval={5000} scope="tasks" />
      </Card>
    </Space>
  );
}
