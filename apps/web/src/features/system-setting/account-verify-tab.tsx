import { ACCESS_TOKEN_MINUTES, REFRESH_TOKEN_DAYS } from '@edgekeep/contract/schemas/system-settings';
import { Form, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFormRules } from '../../components/form-rules';
import { useAccountVerify, useSaveAccountVerify } from './queries';
import { SettingForm } from './setting-form';

type Values = { accessTokenMinutes: number; refreshTokenDays: number };

/** Token lifetimes of new sign-ins of the client and its users. */
export default function AccountVerifyTab() {
  const { t } = useTranslation();
  const rules = useFormRules();
  const setting = useAccountVerify();
  const save = useSaveAccountVerify();
  const range = (r: { min: number; max: number }) => ({ type: 'number' as const, min: r.min, max: r.max, message: t('settingTabs.between', r) });
  return (
    <SettingForm<Values, Values>
      title={t('settingTabs.accountVerify')}
      testId="account-verify-setting"
      stored={setting.data?.data}
      loading={setting.isLoading}
      toForm={(s) => ({ accessTokenMinutes: s.accessTokenMinutes, refreshTokenDays: s.refreshTokenDays })}
      saving={save.isPending}
      onSave={(v) => save.mutateAsync(v)}
    >
      <Form.Item name="accessTokenMinutes" label={t('settingTabs.accessTokenMinutes')} extra={t('settingTabs.lifetimeHint')} rules={[rules.required, range(ACCESS_TOKEN_MINUTES)]}>
        <InputNumber precision={0} style={{ width: 200 }} />
      </Form.Item>
      <Form.Item name="refreshTokenDays" label={t('settingTabs.refreshTokenDays')} rules={[rules.required, range(REFRESH_TOKEN_DAYS)]}>
        <InputNumber precision={0} style={{ width: 200 }} />
      </Form.Item>
    </SettingForm>
  );
}
