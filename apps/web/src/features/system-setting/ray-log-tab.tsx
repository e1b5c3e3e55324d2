import { LOG_PARTS } from '@edgekeep/contract/schemas/system-settings';
import { Button, Card, Checkbox, Form } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { useCdnRayLog, useSaveCdnRayLog } from './queries';

type Part = (typeof LOG_PARTS)[number];
const PART_LABELS = {
  clientIp: 'settingTabs.parts.clientIp',
  requestLine: 'settingTabs.parts.requestLine',
  requestHeaders: 'settingTabs.parts.requestHeaders',
  responseHeaders: 'settingTabs.parts.responseHeaders',
  upstream: 'settingTabs.parts.upstream',
  cacheStatus: 'settingTabs.parts.cacheStatus',
  waf: 'settingTabs.parts.waf',
  timing: 'settingTabs.parts.timing',
} as const satisfies Record<Part, string>;

/** Which parts of each request the edge's ray log keeps. */
export default function RayLogTab() {
  const { t } = useTranslation();
  const editable = useCan()('system.edit');
  const [form] = Form.useForm<{ logParts: Part[] }>();
  const setting = useCdnRayLog();
  const save = useSaveCdnRayLog();
  const s = setting.data?.data;
  useEffect(() => {
    if (s) form.setFieldsValue({ logParts: s.logParts });
  }, [s, form]);
  return (
    <Card title={t('settingTabs.CDNRayLog')} loading={setting.isLoading} data-testid="ray-log-setting">
      <Form form={form} layout="vertical" disabled={!editable} onFinish={(v) => save.mutate({ logParts: v.logParts ?? [] }, { onSuccess: () => toast.success(t('settingTabs.saved')) })}>
        <Form.Item name="logParts" label={t('settingTabs.logParts')}>
          <Checkbox.Group options={LOG_PARTS.map((p) => ({ value: p, label: t(PART_LABELS[p]) }))} style={{ display: 'grid', gap: 8 }} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t('common.save')}
        </Button>
      </Form>
    </Card>
  );
}
