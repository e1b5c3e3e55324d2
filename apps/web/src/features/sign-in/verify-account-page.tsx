import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation } from 'react-router';
import { LOGIN_2FA } from '@edgekeep/contract/constants';
import { accountCalls } from '../../api/account';
import { toast } from '../../app/feedback';
import { useTier } from '../../app/use-tier';
import { useFormRules } from '../../components/form-rules';
import type { VerifyState } from './login-page';
import { useFinishSignIn } from './use-finish-sign-in';

/** The second step: the mailed code or the authenticator's code. */
export default function VerifyAccountPage() {
  const { t } = useTranslation();
  const tier = useTier();
  const rules = useFormRules();
  const finish = useFinishSignIn(tier);
  const initial = useLocation().state as VerifyState | null;
  const [step, setStep] = useState(initial);
  const verify = useMutation({
    mutationFn: async ({ code }: { code: string }) =>
      finish(await (await accountCalls()).code(tier, { account: step!.account, onePassKey: step!.onePassKey, code })),
  });
  const resend = useMutation({
    mutationFn: async () => (await accountCalls()).login(tier, { account: step!.account, password: step!.password }),
    onSuccess: (next) => {
      setStep({ ...step!, onePassKey: next.onePassKey, login2FAType: next.login2FAType });
      toast.success(t('message.checkMail'));
    },
  });
  if (!step?.account || !step.password) return <Navigate to={`/${tier}/login`} replace />;
  const byMail = step.login2FAType === LOGIN_2FA.mail;
  return (
    <Form layout="vertical" onFinish={(v: { code: string }) => verify.mutate(v)} requiredMark={false}>
      <Typography.Title level={5}>{t('signIn.verifyTitle')}</Typography.Title>
      <Alert type="info" showIcon title={byMail ? t('message.checkMail') : t('signIn.appCodeHint')} style={{ marginBottom: 16 }} />
      <Form.Item name="code" label={t('signIn.code')} rules={[rules.required, rules.code]}>
        <Input autoComplete="one-time-code" inputMode="numeric" maxLength={6} autoFocus />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={verify.isPending}>
        {t('signIn.verify')}
      </Button>
      <Space style={{ marginTop: 16, width: '100%', justifyContent: 'space-between' }}>
        <Link to={`/${tier}/login`}>{t('signIn.backToLogin')}</Link>
        {byMail && (
          <Button type="link" onClick={() => resend.mutate()} loading={resend.isPending}>
            {t('signIn.resend')}
          </Button>
        )}
      </Space>
    </Form>
  );
}
