import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { edge } from '@edgekeep/contract';
import { Button, Form, Input, InputNumber, Select, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFormRules } from '../../components/form-rules';
import { MODES } from '../anticc/queries';
import { useSaveZoneSetting, type ZoneSettings } from './queries';
import { SettingCard, type ZoneTabProps } from './zone-setting-form';

const MAX_RULES = 100;

/** The zone's default anti-CC: it protects the zone's sites that have no enabled anti-CC rule of their own. */
export function ZoneAnticcTab({ zoneID, value, canEdit }: ZoneTabProps) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const save = useSaveZoneSetting(zoneID, 'anticc');
  const safeRegex = {
    validator: (_: unknown, v?: string) => {
      const problem = v ? edge.regexProblem(v) : undefined;
      return problem ? Promise.reject(new Error(t('advancedFirewall.regexRefused', { reason: problem }))) : Promise.resolve();
    },
  };
  const modes = Object.entries(MODES).map(([mode, key]) => ({ value: Number(mode), label: t(`antiCC.modes.${key}`) }));
  return (
    <SettingCard<ZoneSettings['anticc']>
      title={t('zones.anticc')}
      canEdit={canEdit}
      initial={value.anticc}
      saving={save.isPending}
      onSave={(v) => save.mutate({ enabled: v.enabled, rules: (v.rules ?? []).map((r) => ({ ...r, urlRegex: r.urlRegex.trim() })) })}
    >
      <Typography.Paragraph type="secondary">{t('zones.anticcHint')}</Typography.Paragraph>
      <Form.Item name="enabled" label={t('advancedFirewall.enabled')} valuePropName="checked">
        <Switch data-testid="zone-anticc-enabled" />
      </Form.Item>
      <Form.List name="rules">
        {(fields, { add, remove }) => (
          <>
            {fields.map((field) => (
              <Space key={field.key} align="start" wrap>
                <Form.Item name={[field.name, 'urlRegex']} label={t('antiCC.urlRegex')} rules={[rules.required, safeRegex]}>
                  <Input placeholder="^/login" style={{ width: 150, fontFamily: 'monospace' }} />
                </Form.Item>
                <Form.Item name={[field.name, 'seconds']} label={t('antiCC.seconds')} rules={[rules.required]}>
                  <InputNumber min={1} max={3600} precision={0} style={{ width: 90 }} />
                </Form.Item>
                <Form.Item name={[field.name, 'times']} label={t('antiCC.times')} rules={[rules.required]}>
                  <InputNumber min={1} max={1_000_000} precision={0} style={{ width: 100 }} />
                </Form.Item>
                <Form.Item name={[field.name, 'type']} label={t('antiCC.mode')} rules={[rules.required]}>
                  <Select options={modes} style={{ width: 150 }} />
                </Form.Item>
                <Button icon={<DeleteOutlined />} onClick={() => remove(field.name)} aria-label={t('common.remove')} style={{ marginTop: 30 }} />
              </Space>
            ))}
            {fields.length < MAX_RULES ? (
              <Button icon={<PlusOutlined />} onClick={() => add({ urlRegex: '', seconds: 10, times: 60, type: 1 })} style={{ marginBottom: 16, display: 'block' }}>
                {t('antiCC.add')}
              </Button>
            ) : null}
          </>
        )}
      </Form.List>
    </SettingCard>
  );
}
