import { Form, InputNumber, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFormRules } from '../../components/form-rules';
import { useSaveZoneSetting } from './queries';
import { SettingCard, type ZoneTabProps } from './zone-setting-form';

const HINTS = { invalidDomainLimitCount: 'zones.invalidDomainLimitCountHint', tlsLimitCount: 'zones.tlsLimitCountHint' } as const;

function LimitCard({ zoneID, value, canEdit, name }: ZoneTabProps & { name: 'invalidDomainLimitCount' | 'tlsLimitCount' }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const save = useSaveZoneSetting(zoneID, name);
  return (
    <SettingCard title={t(`zones.${name}`)} canEdit={canEdit} initial={value[name]} saving={save.isPending} onSave={(v) => save.mutate(v)}>
      <Form.Item name="count" extra={t(HINTS[name])} rules={[rules.required]}>
        <InputNumber min={0} max={1_000_000} precision={0} style={{ width: '100%' }} />
      </Form.Item>
    </SettingCard>
  );
}

/** The cache resource of the zone's nodes, and the per-address limits of unknown hosts and TLS handshakes. */
export function ZoneResourceTab(props: ZoneTabProps) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const save = useSaveZoneSetting(props.zoneID, 'resource');
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <SettingCard title={t('zones.resource')} canEdit={props.canEdit} initial={props.value.resource} saving={save.isPending} onSave={(v) => save.mutate(v)}>
        <Form.Item name="cacheSize" label={t('zones.cacheSize')} rules={[rules.required]}>
          <InputNumber min={16} max={10_000_000} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="cacheTime" label={t('zones.cacheTime')} rules={[rules.required]}>
          <InputNumber min={1} max={525_600} precision={0} style={{ width: '100%' }} />
        </Form.Item>
      </SettingCard>
      <LimitCard {...props} name="invalidDomainLimitCount" />
      <LimitCard {...props} name="tlsLimitCount" />
    </Space>
  );
}
