import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Form, Input, InputNumber, Skeleton, Space } from 'antd';
import { triggerRate, triggerRates, type TriggerRates } from '@edgekeep/contract/schemas/client-settings';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { useFormRules } from '../../components/form-rules';
import { useSetTriggerRates, useTriggerRates } from './queries';

const within = (schema: { safeParse: (v: unknown) => { success: boolean } }, message: string) => ({
  validator: (_: unknown, v: unknown) => (v === undefined || v === null || schema.safeParse(v).success ? Promise.resolve() : Promise.reject(new Error(message))),
});

/** systemManagement/perdefinedSetting: the predefined trigger rates the firewall forms offer as presets. */
export default function PerdefinedSettingPage() {
  const { t } = useTranslation();
  const rules = useFormRules();
  const rates = useTriggerRates();
  const save = useSetTriggerRates();
  const editable = useCan()('system.edit');
  if (!rates.data) return <Card title={t('menu.perdefinedSetting')}>{rates.isPending ? <Skeleton active /> : null}</Card>;
  const wrong = t('validation.wrongFormat');
  const finish = (v: TriggerRates) => {
    if (!triggerRates.safeParse(v).success) return toast.error(t('validation.checkForm'));
    save.mutate(v, { onSuccess: () => toast.success(t('infra.setSuccess')) });
  };
  return (
    <Card title={t('menu.perdefinedSetting')}>
      <Alert type="info" showIcon message={t('clientSettings.perdefinedHint')} style={{ marginBottom: 16 }} />
      <Form<TriggerRates> initialValues={rates.data} onFinish={finish} disabled={!editable} onFinishFailed={() => toast.error(t('validation.checkForm'))}>
        <Form.List name="rates">
          {(fields, { add, remove }) => (
            <>
              {fields.map((field) => (
                <Space key={field.key} align="baseline" wrap>
                  <Form.Item name={[field.name, 'name']} rules={[rules.required, within(triggerRate.shape.name, wrong)]}>
                    <Input placeholder={t('clientSettings.rateName')} style={{ width: 180 }} />
                  </Form.Item>
                  <Form.Item name={[field.name, 'requests']} label={t('clientSettings.rateRequests')} rules={[rules.required, within(triggerRate.shape.requests, wrong)]}>
                    <InputNumber min={1} precision={0} />
                  </Form.Item>
                  <Form.Item name={[field.name, 'seconds']} label={t('clientSettings.rateSeconds')} rules={[rules.required, within(triggerRate.shape.seconds, wrong)]}>
                    <InputNumber min={1} max={3600} precision={0} />
                  </Form.Item>
                  {fields.length > 1 ? <MinusCircleOutlined onClick={() => remove(field.name)} /> : null}
                </Space>
              ))}
              <Form.Item>
                <Button type="dashed" onClick={() => add({ name: '', requests: 100, seconds: 60 })} icon={<PlusOutlined />} disabled={fields.length >= 20}>
                  {t('clientSettings.addRate')}
                </Button>
              </Form.Item>
            </>
          )}
        </Form.List>
        <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="rates-save">
          {t('common.save')}
        </Button>
      </Form>
    </Card>
  );
}
