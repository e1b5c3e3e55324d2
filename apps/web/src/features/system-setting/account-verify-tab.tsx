import { ACCESS_TOKEN_MINUTES, REFRESH_TOKEN_DAYS } from '@edgekeep/contract/schemas/system-settings';
import { Button, Card, Form, InputNumber } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { useFormRules } from '../../components/form-rules';
import { useAccountVerify, useSaveAccountVerify } from './queries';

type Values = { accessTokenMinutes: number; refreshTokenDays: number };

/** Token lifetimes of new sign-ins of the client and its users. */
export default function AccountVerifyTab() {
  const { t } = useTranslation();
  const rules = useFormRules();
  const editable = useCan()('system.edit');
  const [form] = Form.useForm<Values>();
  const setting = useAccountVerify();
  const save = useSaveAccountVerify();
  const s = setting.data?.data;
  useEffect(() => {
    if (s) form.setFieldsValue({ accessTokenMinutes: s.accessTokenMinutes, refreshTokenDays: s.refreshTokenDays });
  }, [s, form]);
  const range = (r: { min: number; max: number }) => ({ type: 'number' as const, min: r.min, max: r.max, message: t('settingTabs.between', r) });
  return (
    <Card title={t('settingTabs.accountVerify')} loading={setting.isLoading} data-testid="account-verify-setting">
      <Form<Values> form={form} layout="vertical" disabled={!editable} onFinish={(v) => save.mutate(v, { onSuccess: () => toast.success(t('settingTabs.saved')) })} onFinishFailed={() => toast.error(t('validation.checkForm'))}>
        <Form.Item name="accessTokenMinutes" label={t('settingTabs.accessTokenMinutes')} extra={t('settingTabs.lifetimeHint')} rules={[rules.required, range(ACCESS_TOKEN_MINUTES)]}>
          <InputNumber precision={0} style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="refreshTokenDays" label={t('settingTabs.refreshTokenDays')} rules={[rules.required, range(REFRESH_TOKEN_DAYS)]}>
          <InputNumber precision={0} style={{ width: 200 }} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t('common.save')}
        </Button>
      </Form>
    </Card>
  );
}
