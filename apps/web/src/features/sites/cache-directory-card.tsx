import { edge } from '@edgekeep/contract';
import { Card, Form, Input, Radio, Typography, type FormRule } from 'antd';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useSiteMutation } from './use-site-mutation';
import { SaveButton } from './save-button';
import { siteKeys, siteOptionCalls, type FullSettings } from './queries';

type Fields = { mode: 'shared' | 'own'; directory: string };

/** Where the edge keeps the site's cache: the node's shared cache, or a directory of its own under the cache folder. */
export function CacheDirectoryCard({ siteId, settings, editable }: { siteId: number; settings: FullSettings; editable: boolean }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Fields>();
  const mode = Form.useWatch('mode', form);
  const { cache } = settings;
  const save = useSiteMutation({
    fn: (directory: string | null) => siteOptionCalls.cacheSettings(siteId, { ignoreQuery: cache.ignoreQuery, directory }),
    success: 'updateSuccess',
    refresh: [siteKeys.settings(siteId)],
  });
  const pathRule: FormRule = {
    validator: (_, value?: string) => {
      const path = value?.trim() || cache.defaultDirectory;
      const ok = edge.cacheDirectory.safeParse(path).success && path.startsWith(`${edge.SITE_CACHE_ROOT}/`);
      return ok ? Promise.resolve() : Promise.reject(new Error(t('siteOptions.cacheDirFormat', { root: edge.SITE_CACHE_ROOT })));
    },
  };
  return (
    <Card size="small" title={t('siteOptions.cacheDir')}>
      <Form<Fields>
        form={form}
        layout="vertical"
        requiredMark={false}
        disabled={!editable}
        initialValues={{ mode: cache.directory === null ? 'shared' : 'own', directory: cache.directory ?? '' }}
        onFinish={(v) => save.mutate(v.mode === 'shared' ? null : v.directory?.trim() || cache.defaultDirectory)}
        onFinishFailed={() => toast.error(t('validation.checkForm'))}
        style={{ maxWidth: 560 }}
      >
        <Form.Item name="mode">
          <Radio.Group
            options={[
              { value: 'shared', label: t('siteOptions.cacheDirShared') },
              { value: 'own', label: t('siteOptions.cacheDirOwn') },
            ]}
            data-testid="cache-dir-mode"
          />
        </Form.Item>
        {mode === 'own' ? (
          <Form.Item name="directory" extra={t('siteOptions.cacheDirHint', { root: edge.SITE_CACHE_ROOT })} rules={[pathRule]}>
            <Input placeholder={cache.defaultDirectory} maxLength={edge.CACHE_DIRECTORY_MAX} data-testid="cache-dir" />
          </Form.Item>
        ) : null}
        <Typography.Paragraph type="secondary" data-testid="cache-dir-effective">
          {cache.directory === null ? t('siteOptions.cacheDirNowShared') : t('siteOptions.cacheDirNow', { directory: cache.directory })}
        </Typography.Paragraph>
        <SaveButton editable={editable} loading={save.isPending} />
      </Form>
    </Card>
  );
}
