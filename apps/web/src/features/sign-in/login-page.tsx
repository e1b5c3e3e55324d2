import { LockOutlined, MailOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { Button, Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { accountCalls } from '../../api/account';
import { useTier } from '../../app/use-tier';
import { useFormRules } from '../../components/form-rules';
import { useFinishSignIn } from './use-finish-sign-in';

type Fields = { account: string; password: string };
export type VerifyState = Fields & { onePassKey: string; login2FAType: number };

export default function LoginPage() {
  const { t } = useTranslation();
  const tier = useTier();
  const rules = useFormRules();
  const navigate = useNavigate();
  const finish = useFinishSignIn(tier);
  const signIn = useMutation({
    mutationFn: async (fields: Fields) => {
      const calls = await accountCalls();
      const step = await calls.login(tier, fields);
      // Without a second factor the answer carries the code, which is posted at once.
      if (step.code) return finish(await calls.code(tier, { account: fields.account, onePassKey: step.onePassKey, code: step.code }));
      const state: VerifyState = { ...fields, onePassKey: step.onePassKey, login2FAType: step.login2FAType };
      navigate('verifyAccount', { state });
    },
  });
  return (
    <Form<Fields> layout="vertical" onFinish={(v) => signIn.mutate(v)} requiredMark={false}>
      <Typography.Title level={5}>{t('signIn.title')}</Typography.Title>
      <Form.Item name="account" label={t('signIn.email')} rules={[rules.required, rules.email]}>
        <Input prefix={<MailOutlined />} autoComplete="username" />
      </Form.Item>
      <Form.Item name="password" label={t('signIn.password')} rules={[rules.required]}>
        <Input.Password prefix={<LockOutlined />} autoComplete="current-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={signIn.isPending}>
        {t('signIn.login')}
      </Button>
    </Form>
  );
}
