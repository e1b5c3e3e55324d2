import { DNS_TYPES, dnsSettingBody, type dnsSetting } from '@edgekeep/contract/schemas/dns-settings';
import { Button, Descriptions, Form, Input, InputNumber, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { toast } from '../../app/feedback';
import { useFormRules } from '../../components/form-rules';
import { useDnsMutations, type DnsSettingInput } from './queries';

type Setting = z.output<typeof dnsSetting>;
type Values = { type: DnsSettingInput['type']; apiUrl: string; apiKey?: string; serverID: string; ttl: number };

const LABELS: Record<(typeof DNS_TYPES)[number], string> = { powerdns: 'PowerDNS' };

/** The provider's settings: test them, then save; the API key is only written (left empty, the stored one is kept). */
export function DnsSettingForm({ setting }: { setting: Setting }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<Values>();
  const { test, save } = useDnsMutations();
  const bodyOf = (v: Values): DnsSettingInput => ({ ...v, apiKey: v.apiKey?.trim() || undefined });
  const field = (name: keyof Values) => ({
    validator: async (_: unknown, value: unknown) => {
      if (value === undefined || value === '' || value === null) return;
      if (!dnsSettingBody.shape[name].safeParse(value).success) throw new Error(t('validation.wrongFormat'));
    },
  });
  const onTest = async () => {
    const values = await form.validateFields().catch(() => undefined);
    if (!values) return void toast.error(t('validation.checkForm'));
    test.mutate(bodyOf(values), { onSuccess: () => toast.success(t('dnsSetting.connectionSuccess')) });
  };
  const initial: Values = { type: setting.type ?? 'powerdns', apiUrl: setting.apiUrl, serverID: setting.serverID, ttl: setting.ttl };
  return (
    <Form<Values>
      form={form}
      layout="vertical"
      style={{ maxWidth: 560 }}
      initialValues={initial}
      onFinish={(v) => save.mutate(bodyOf(v), { onSuccess: () => (form.setFieldValue('apiKey', undefined), toast.success(t('dnsSetting.saved'))) })}
      onFinishFailed={() => toast.error(t('validation.checkForm'))}
    >
      <Form.Item name="type" label={t('dnsSetting.type')} rules={[rules.required]}>
        <Select options={DNS_TYPES.map((value) => ({ value, label: LABELS[value] }))} data-testid="dns-type" />
      </Form.Item>
      <Form.Item name="apiUrl" label={t('dnsSetting.apiUrl')} extra={t('dnsSetting.apiUrlHint')} rules={[rules.required, field('apiUrl')]}>
        <Input placeholder="http://127.0.0.1:8081" />
      </Form.Item>
      <Form.Item
        name="apiKey"
        label={t('dnsSetting.apiKey')}
        extra={setting.apiKeySet ? t('dnsSetting.apiKeyKept') : undefined}
        rules={setting.apiKeySet ? [field('apiKey')] : [rules.required, field('apiKey')]}
      >
        <Input.Password autoComplete="new-password" placeholder={setting.apiKeySet ? t('dnsSetting.apiKeySet') : ''} />
      </Form.Item>
      <Form.Item name="serverID" label={t('dnsSetting.serverID')} rules={[rules.required, field('serverID')]}>
        <Input />
      </Form.Item>
      <Form.Item name="ttl" label={t('dnsSetting.ttl')} rules={[rules.required, field('ttl')]}>
        <InputNumber min={1} max={3600} style={{ width: 160 }} />
      </Form.Item>
      <Descriptions size="small" column={1} style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('dnsSetting.cnameDomain')}>{setting.cnameDomain}</Descriptions.Item>
      </Descriptions>
      <Space>
        <Button onClick={onTest} loading={test.isPending}>
          {t('dnsSetting.test')}
        </Button>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t('common.save')}
        </Button>
      </Space>
    </Form>
  );
}
