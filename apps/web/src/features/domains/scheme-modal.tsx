import { Button, Form, InputNumber, Modal, Select, Space, Switch, Typography } from 'antd';
import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useFormRules } from '../../components/form-rules';
import { useSiteMutation } from '../sites/use-site-mutation';
import { siteKeys, type Domain } from '../sites/queries';
import { domainCalls, type SchemeBody } from './queries';

type Values = Required<SchemeBody>;

/** Origin protocol and port mapping: follow needs mapping on; a mapped edge port must be open in the zone (401003). */
export function SchemeModal({ siteId, domain, onClose }: { siteId: number; domain: Domain; onClose: () => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<Values>();
  const scheme = Form.useWatch('scheme', form);
  const save = useSiteMutation({
    fn: (v: Values) => domainCalls.setScheme(siteId, domain.id, v),
    success: 'updateSuccess',
    refresh: [siteKeys.domains(siteId)],
    done: onClose,
  });
  const port = <InputNumber min={1} max={65535} precision={0} style={{ width: 120 }} />;
  return (
    <Modal open title={t('domainSettings.schemeTitle', { name: domain.name })} onCancel={onClose} onOk={() => form.submit()} confirmLoading={save.isPending}>
      <Form form={form} layout="vertical" initialValues={{ scheme: domain.protocol, portMap: domain.portMap }} onFinish={(v) => save.mutate(v)}>
        <Form.Item name="scheme" label={t('domains.protocol')}>
          <Select
            options={(['http', 'https', 'follow'] as const).map((value) => ({
              value,
              label: t(`domains.protocol${value === 'http' ? 'Http' : value === 'https' ? 'Https' : 'Follow'}`),
            }))}
          />
        </Form.Item>
        <Form.Item
          name={['portMap', 'enabled']}
          label={t('domainSettings.portMap')}
          valuePropName="checked"
          extra={t('domainSettings.portMapHint')}
          rules={[{ validator: (_, on) => (scheme === 'follow' && !on ? Promise.reject(new Error(t('domainSettings.followNeedsMap'))) : Promise.resolve()) }]}
        >
          <Switch aria-label="port mapping" />
        </Form.Item>
        <Form.List name={['portMap', 'rules']}>
          {(fields, { add, remove }) => (
            <>
              {fields.map((field) => (
                <Space key={field.key} align="baseline">
                  <Form.Item name={[field.name, 'listen']} label={t('domainSettings.edgePort')} rules={[rules.required]}>
                    {port}
                  </Form.Item>
                  <Typography.Text>→</Typography.Text>
                  <Form.Item name={[field.name, 'originPort']} label={t('domainSettings.originPort')} rules={[rules.required]}>
                    {port}
                  </Form.Item>
                  <MinusCircleOutlined aria-label="remove rule" onClick={() => remove(field.name)} />
                </Space>
              ))}
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ listen: 443, originPort: 443 })}>
                {t('domainSettings.addMapping')}
              </Button>
            </>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}
