import { Button, Card, Form, Input, InputNumber, Space, Switch } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { useFormRules } from '../../components/form-rules';
import { useEmailSetting, useSaveEmailSetting, useSendTestMail } from './queries';

type Values = { enabled: boolean; host: string; port: number; secure: boolean; username: string; password?: string; from: string };

/** The client's outgoing mail server for notices, and a test mail through it. */
export default function EmailTab() {
  const { t } = useTranslation();
  const rules = useFormRules();
  const editable = useCan()('system.edit');
  const [form] = Form.useForm<Values>();
  const setting = useEmailSetting();
  const save = useSaveEmailSetting();
  const test = useSendTestMail();
  const [to, setTo] = useState('');
  const s = setting.data?.data;
  useEffect(() => {
    if (s) form.setFieldsValue({ enabled: s.enabled, host: s.host, port: s.port, secure: s.secure, username: s.username, from: s.from, password: '' });
  }, [s, form]);
  const enabled = Form.useWatch('enabled', form);
  const whenEnabled = enabled ? [rules.required] : [];
  const submit = ({ password, ...v }: Values) =>
    save.mutate({ ...v, host: v.host?.trim() ?? '', username: v.username ?? '', from: v.from?.trim() ?? '', ...(password ? { password } : {}) }, { onSuccess: () => toast.success(t('settingTabs.saved')) });
  return (
    <Card title={t('settingTabs.email')} loading={setting.isLoading} data-testid="email-setting">
      <Form<Values> form={form} layout="vertical" disabled={!editable} onFinish={submit} onFinishFailed={() => toast.error(t('validation.checkForm'))} style={{ maxWidth: 560 }}>
        <Form.Item name="enabled" label={t('settingTabs.emailEnabled')} valuePropName="checked" extra={t('settingTabs.emailHint')}>
          <Switch />
        </Form.Item>
        <Form.Item name="host" label={t('settingTabs.smtpHost')} rules={[...whenEnabled, { pattern: /^[A-Za-z0-9.:[\]-]*$/, message: t('validation.wrongFormat') }]}>
          <Input placeholder="smtp.example.com" />
        </Form.Item>
        <Form.Item name="port" label={t('settingTabs.smtpPort')} rules={[rules.required]}>
          <InputNumber min={1} max={65535} precision={0} style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name="secure" label={t('settingTabs.smtpSecure')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="username" label={t('settingTabs.smtpUser')}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="password" label={t('settingTabs.smtpPassword')} extra={s?.passwordSet ? t('settingTabs.passwordSet') : undefined}>
          <Input.Password autoComplete="new-password" placeholder={s?.passwordSet ? '••••••••' : ''} />
        </Form.Item>
        <Form.Item name="from" label={t('settingTabs.smtpFrom')} rules={[...whenEnabled, rules.email]}>
          <Input placeholder="noc@example.com" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t('common.save')}
        </Button>
      </Form>
      <Space.Compact style={{ marginTop: 24, maxWidth: 560, width: '100%' }}>
        <Input value={to} onChange={(e) => setTo(e.target.value)} placeholder={t('settingTabs.testTo')} disabled={!editable || !s?.enabled} data-testid="test-mail-to" />
        <Button
          disabled={!editable || !s?.enabled || !to.trim()}
          loading={test.isPending}
          onClick={() => test.mutate({ to: to.trim() }, { onSuccess: () => toast.success(t('settingTabs.connectionSuccess')) })}
        >
          {t('settingTabs.sendTestMail')}
        </Button>
      </Space.Compact>
    </Card>
  );
}
