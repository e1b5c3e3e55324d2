import { LOG_PARTS } from '@edgekeep/contract/schemas/system-settings';
import { Checkbox, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCdnRayLog, useSaveCdnRayLog } from './queries';
import { SettingForm } from './setting-form';

type Part = (typeof LOG_PARTS)[number];
const PART_LABELS = {
  node: 'settingTabs.parts.node',
  site: 'settingTabs.parts.site',
  time: 'settingTabs.parts.time',
} as const satisfies Record<Part, string>;

/** What the ray id of each request at the edge carries after the request id. */
export default function RayLogTab() {
  const { t } = useTranslation();
  const setting = useCdnRayLog();
  const save = useSaveCdnRayLog();
  return (
    <SettingForm<{ logParts: Part[] }, { logParts?: Part[] }>
      title={t('settingTabs.CDNRayLog')}
      testId="ray-log-setting"
      stored={setting.data?.data}
      loading={setting.isLoading}
      toForm={(s) => ({ logParts: s.logParts })}
      saving={save.isPending}
      onSave={(v) => save.mutateAsync({ logParts: v.logParts ?? [] })}
    >
      <Form.Item name="logParts" label={t('settingTabs.logParts')} extra={t('settingTabs.rayHint')}>
        <Checkbox.Group options={LOG_PARTS.map((p) => ({ value: p, label: t(PART_LABELS[p]) }))} style={{ display: 'grid', gap: 8 }} />
      </Form.Item>
    </SettingForm>
  );
}
