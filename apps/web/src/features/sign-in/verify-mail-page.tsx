import { Spin } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { accountCalls } from '../../api/account';
import { toast } from '../../app/feedback';
import { useTier } from '../../app/use-tier';

/** /{tier}/verifyMail?token=: checks the set-password link, then on to CreatePassword or back to login. */
export default function VerifyMailPage() {
  const { t } = useTranslation();
  const tier = useTier();
  const navigate = useNavigate();
  const token = useSearchParams()[0].get('token') ?? '';
  useEffect(() => {
    let live = true;
    const failed = () => {
      if (!live) return;
      toast.info(t('message.verifyMailFailed'));
      navigate(`/${tier}/login`, { replace: true });
    };
    if (!token) return failed();
    accountCalls().then((calls) => calls.checkMailToken(token)).then((info) => {
      if (!live) return;
      const query = new URLSearchParams({ auth: info.auth, email: info.email, id: String(info.id), name: info.name, token: info.token });
      navigate(`/${info.auth}/login/createPassword?${query}`, { replace: true });
    }, failed);
    return () => {
      live = false;
    };
  }, [token, tier, navigate, t]);
  return <Spin fullscreen description={t('signIn.checkingLink')} />;
}
