import { Button, Card, Popconfirm, Space, Switch, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { DataTable } from '../../components/data-table';
import { CacheDirectoryCard } from './cache-directory-card';
import { CacheRuleModal } from './cache-rule-modal';
import { pageOf } from './page-of';
import { useSiteMutation } from './use-site-mutation';
import { RemoveLink } from './remove-link';
import { siteKeys, siteOptionCalls, useSiteSettings, type CacheRuleItem } from './queries';

/** Cache rules (file types or URL prefixes; 0 seconds = not cached) and the gzip switch. */
export function CacheTab({ siteId }: { siteId: number }) {
  const { t } = useTranslation();
  const editable = useCan()('sites.edit');
  const [editing, setEditing] = useState<CacheRuleItem | 'new'>();
  const settings = useSiteSettings(siteId);
  const gzip = useSiteMutation({ fn: (on: boolean) => siteOptionCalls.compression(siteId, { enabled: on }), success: 'updateSuccess', refresh: [siteKeys.settings(siteId)] });
  const cacheKey = useSiteMutation({
    fn: (ignoreQuery: boolean) => siteOptionCalls.cacheSettings(siteId, { ignoreQuery, directory: settings.data?.cache.directory ?? null }),
    success: 'updateSuccess',
    refresh: [siteKeys.settings(siteId)],
  });
  const purge = useSiteMutation({
    fn: (ids: number[]) => siteOptionCalls.purgeCacheRules(siteId, ids),
    success: 'updateSuccess',
    refresh: [],
    done: (r) => toast.info(t('siteOptions.purgeQueued', { nodes: r.nodes })),
  });
  const remove = useSiteMutation({
    fn: (ids: number[]) => siteOptionCalls.removeCacheRules(siteId, ids),
    success: 'removeSuccess',
    refresh: [siteKeys.settings(siteId)],
  });
  const columns: TableColumnsType<CacheRuleItem> = [
    { key: 'type', title: t('cache.type'), render: (_, r) => t(r.type === 'url' ? 'cache.typeUrl' : 'cache.typeFileTypes') },
    {
      key: 'values',
      title: t('cache.values'),
      render: (_, r) => (
        <Space size={4} wrap>
          {r.values.map((v) => (
            <Tag key={v}>{v}</Tag>
          ))}
        </Space>
      ),
    },
    { key: 'seconds', title: t('cache.seconds'), render: (_, r) => (r.seconds === 0 ? t('cache.noCache') : r.seconds) },
    { key: 'mode', title: t('cache.mode'), render: (_, r) => t(r.mode === 'force' ? 'cache.modeForce' : 'cache.modeFollow') },
    {
      key: 'actions',
      title: t('sites.actions'),
      render: (_, r) =>
        editable ? (
          <Space>
            <Button size="small" type="link" onClick={() => setEditing(r)}>
              {t('sites.edit')}
            </Button>
            <Popconfirm title={t('siteOptions.purgeRuleConfirm')} onConfirm={() => purge.mutate([r.id])}>
              <Button size="small" type="link">
                {t('siteOptions.purgeRule')}
              </Button>
            </Popconfirm>
            <RemoveLink name={r.values.join(', ')} onConfirm={() => remove.mutate([r.id])} />
          </Space>
        ) : null,
    },
  ];
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Card size="small" title={t('cache.gzip')}>
        <Space>
          <Switch
            checked={settings.data?.gzip ?? false}
            loading={settings.isFetching || gzip.isPending}
            disabled={!editable || !settings.data}
            onChange={(on) => gzip.mutate(on)}
            data-testid="gzip-switch"
          />
          <Typography.Text type="secondary">{t('cache.gzipHint')}</Typography.Text>
        </Space>
      </Card>
      <Card size="small" title={t('siteOptions.cacheKey')}>
        <Space>
          <Switch
            checked={settings.data?.cache.ignoreQuery ?? false}
            loading={settings.isFetching || cacheKey.isPending}
            disabled={!editable || !settings.data}
            onChange={(on) => cacheKey.mutate(on)}
            data-testid="ignore-query-switch"
          />
          <Typography.Text type="secondary">{t('siteOptions.ignoreQueryHint')}</Typography.Text>
        </Space>
      </Card>
      {settings.data ? <CacheDirectoryCard key={settings.data.cache.directory ?? ''} siteId={siteId} settings={settings.data} editable={editable} /> : null}
      <Card size="small" title={t('cache.rules')}>
        <DataTable<CacheRuleItem>
          queryKey={siteKeys.settings(siteId)}
          fetch={async (query) => pageOf((await siteOptionCalls.settings(siteId)).cacheRules, query)}
          columns={columns}
          rowKey="id"
          toolbar={
            editable ? (
              <Button type="primary" onClick={() => setEditing('new')}>
                {t('cache.addRule')}
              </Button>
            ) : null
          }
        />
      </Card>
      {editing ? <CacheRuleModal siteId={siteId} rule={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} /> : null}
    </Space>
  );
}
