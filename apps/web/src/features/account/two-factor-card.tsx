import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Image, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LOGIN_2FA } from '@edgekeep/contract/constants';
import type { Tier } from '@edgekeep/contract/tiers';
import { accountCalls } from '../../api/account';
import type { TwoFactorPhase1 } from '../../api/types';
import { toast } from '../../app/feedback';
import { queryClient } from '../../app/query-client';
import { selfQueryKey } from '../../app/use-self';
import { useFormRules } from '../../components/form-rules';

/** Where the three-phase flow stands: verifying the current method, or confirming the new secret. */
type Step = { phase: 'verify'; onePassKey: string; enabling: boolean } | { phase: 'confirm'; enroll: TwoFactorPhase1 };

function CodeForm({ onCode, loading, label }: { onCode: (code: string) => void; loading: boolean; label: string }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  return (
    <Form layout="inline" onFinish={(v: { code: string }) => onCode(v.code)} requiredMark={false}>
      <Form.Item name="code" label={t('twoFactor.code')} rules={[rules.required, rules.code]}>
        <Input inputMode="numeric" maxLength={6} autoComplete="one-time-code" aria-label={label} />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={loading}>
        {t('twoFactor.next')}
      </Button>
    </Form>
  );
}

/** Turning the authenticator app on (phases 0, 1, 2) or off (phases 0, 1). */
export function TwoFactorCard({ tier, login2FAType }: { tier: Tier; login2FAType: number }) {
  const { t } = useTranslation();
  const [step, setStep] = useState<Step>();
  const done = (text: string) => {
    setStep(undefined);
    void queryClient.invalidateQueries({ queryKey: selfQueryKey(tier) });
    toast.success(text);
  };
  const start = useMutation({
    mutationFn: async () => (await accountCalls()).twoFactorPhase0(tier),
    onSuccess: (r) => {
      if (r.enabling) toast.info(t('message.checkMail'));
      setStep({ phase: 'verify', onePassKey: r.onePassKey, enabling: r.enabling });
    },
  });
  const verify = useMutation({
    mutationFn: async ({ onePassKey, code }: { onePassKey: string; code: string }) => (await accountCalls()).twoFactorPhase1(tier, { onePassKey, code }),
    onSuccess: (r) => (r.qrCode ? setStep({ phase: 'confirm', enroll: r }) : done(t('twoFactor.disabledDone'))),
  });
  const confirm = useMutation({
    mutationFn: async (code: string) => (await accountCalls()).twoFactorPhase2(tier, { onePassKey: step?.phase === 'confirm' ? step.enroll.onePassKey! : '', code }),
    onSuccess: () => done(t('twoFactor.enabledDone')),
  });
  const appOn = login2FAType === LOGIN_2FA.app;
  return (
    <Card title={t('account.twoFactor')} style={{ maxWidth: 560 }} data-testid="two-factor">
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Text>{appOn ? t('twoFactor.enabled') : t('twoFactor.disabled')}</Typography.Text>
        {!step && (
          <Button onClick={() => start.mutate()} loading={start.isPending} danger={appOn}>
            {appOn ? t('twoFactor.disable') : t('twoFactor.enable')}
          </Button>
        )}
        {step?.phase === 'verify' && (
          <>
            <Alert type="info" showIcon title={step.enabling ? t('twoFactor.step0Mail') : t('twoFactor.step0App')} />
            <CodeForm
              label={t('twoFactor.code')}
              loading={verify.isPending}
              onCode={(code) => verify.mutate({ onePassKey: step.onePassKey, code })}
            />
          </>
        )}
        {step?.phase === 'confirm' && (
          <>
            <Typography.Text>{t('twoFactor.scan')}</Typography.Text>
            <Image src={step.enroll.qrCode} width={200} preview={false} alt="QR code" />
            <Typography.Text type="secondary">{t('twoFactor.manualKey')}</Typography.Text>
            <Typography.Text code copyable data-testid="otpauth-uri">
              {step.enroll.qrCodeData}
            </Typography.Text>
            <CodeForm label={t('twoFactor.code')} loading={confirm.isPending} onCode={(code) => confirm.mutate(code)} />
          </>
        )}
      </Space>
    </Card>
  );
}
