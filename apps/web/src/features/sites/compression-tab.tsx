import { Card, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../app/use-self';
import { useSiteMutation } from './use-site-mutation';
import { siteKeys, siteOptionCalls, useSiteSettings, type Compression } from './queries';

/** Gzip for text answers, and WebP variants of images cached apart for clients that accept WebP. */
export function CompressionTab({ siteId }: { siteId: number }) {
  const { t } = useTranslation();
  const editable = useCan()('sites.edit');
  const settings = useSiteSettings(siteId);
  const save = useSiteMutation({
    fn: (body: Compression) => siteOptionCalls.compression(siteId, body),
    success: 'updateSuccess',
    refresh: [siteKeys.settings(siteId)],
  });
  const s = settings.data;
  const busy = settings.isFetching || save.isPending;
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Card size="small" title={t('cache.gzip')}>
        <Space>
          <Switch checked={s?.gzip ?? false} loading={busy} disabled={!editable || !s} onChange={(on) => save.mutate({ enabled: on })} data-testid="gzip-on" />
          <Typography.Text type="secondary">{t('cache.gzipHint')}</Typography.Text>
        </Space>
      </Card>
      <Card size="small" title={t('siteOptions.webp')}>
        <Space>
          <Switch checked={s?.webp ?? false} loading={busy} disabled={!editable || !s} onChange={(on) => s && save.mutate({ enabled: s.gzip, webp: on })} data-testid="webp-on" />
          <Typography.Text type="secondary">{t('siteOptions.webpHint')}</Typography.Text>
        </Space>
      </Card>
    </Space>
  );
}
