import { BOT_TOKEN, REGISTER_COMMAND } from '@edgekeep/contract/schemas/notifications';
import type { Tier } from '@edgekeep/contract/tiers';
import { Alert, Button, Card, Form, Input, Space, Switch, Tag } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useFormRules, zodRule } from '../../components/form-rules';
import { useBotSetting, useSaveBotSetting, useSendTestMessage } from './queries';

type Values = { enabled: boolean; token?: string; registerCommand: string };

/**
 * The account's chat-bot channel: its bot's token (write-only), the register command the account sends the bot so
 * that the bot learns the chat, and a test message.
 */
export function BotSettingCard({ tier, editable }: { tier: Tier; editable: boolean }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<Values>();
  const setting = useBotSetting(tier);
  const save = useSaveBotSetting(tier);
  const test = useSendTestMessage(tier);
  const s = setting.data?.data;
  useEffect(() => {
    if (s) form.setFieldsValue({ enabled: s.enabled, token: '', registerCommand: s.registerCommand || '/register' });
  }, [s, form]);
  const submit = (v: Values) =>
    save.mutate(
      { enabled: v.enabled, registerCommand: v.registerCommand.trim(), ...(v.token ? { token: v.token.trim() } : {}) },
      { onSuccess: () => toast.success(t('notify.saved')) },
    );
  return (
    <Card title={t('notify.botTitle')} loading={setting.isLoading} data-testid="bot-setting">
      <Form<Values> form={form} layout="vertical" disabled={!editable} onFinish={submit} onFinishFailed={() => toast.error(t('validation.checkForm'))} style={{ maxWidth: 560 }}>
        <Form.Item name="enabled" label={t('notify.botEnabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item
          name="token"
          label={t('notify.botToken')}
          extra={s?.tokenSet ? t('notify.tokenSet') : t('notify.tokenHint')}
          rules={[zodRule(BOT_TOKEN, t('validation.wrongFormat'))]}
        >
          <Input.Password autoComplete="new-password" placeholder={s?.tokenSet ? '••••••••' : '123456:ABC-DEF…'} />
        </Form.Item>
        <Form.Item name="registerCommand" label={t('notify.registerCommand')} extra={t('notify.registerHint')} rules={[rules.required, zodRule(REGISTER_COMMAND, t('validation.wrongFormat'))]}>
          <Input placeholder="/register my-secret" />
        </Form.Item>
        <Space wrap>
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            {t('common.save')}
          </Button>
          <Button disabled={!editable || !s?.tokenSet} loading={test.isPending} onClick={() => test.mutate(undefined, { onSuccess: () => toast.success(t('notify.testSent')) })}>
            {t('notify.sendTest')}
          </Button>
          {s ? <Tag color={s.registered ? 'green' : 'default'} data-testid="bot-registered">{t(s.registered ? 'notify.registered' : 'notify.notRegistered')}</Tag> : null}
        </Space>
      </Form>
      {s && s.tokenSet && !s.registered ? <Alert style={{ marginTop: 16 }} type="info" showIcon title={t('notify.registerSteps', { command: s.registerCommand })} /> : null}
    </Card>
  );
}
