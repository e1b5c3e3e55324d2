import { useMutation } from '@tanstack/react-query';
import { Button, Descriptions, Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { accountCalls } from '../../api/account';
import { toast } from '../../app/feedback';
import { useTier } from '../../app/use-tier';
import { useFormRules } from '../../components/form-rules';

type Fields = { password: string; confirmPassword: string };

/** Sets the first password of an account; the mail link's check passes auth, email, id, name and token. */
export default function CreatePasswordPage() {
  const { t } = useTranslation();
  const tier = useTier();
  const rules = useFormRules();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token');
  const create = useMutation({
    mutationFn: async (fields: Fields) => (await accountCalls()).registerPassword({ token: token!, password: fields.password }),
    onSuccess: () => {
      toast.success(t('message.createPasswordSuccess'));
      navigate(`/${tier}/login`, { replace: true });
    },
  });
  if (!token) return <Navigate to={`/${tier}/login`} replace />;
  return (
    <Form<Fields> layout="vertical" onFinish={(v) => create.mutate(v)} requiredMark={false}>
      <Typography.Title level={5}>{t('signIn.createPasswordTitle')}</Typography.Title>
      <Descriptions column={1} size="small" style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('account.email')}>{params.get('email')}</Descriptions.Item>
        <Descriptions.Item label={t('account.name')}>{params.get('name')}</Descriptions.Item>
      </Descriptions>
      <Form.Item name="password" label={t('signIn.newPassword')} rules={[rules.required, rules.password]}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="confirmPassword"
        label={t('signIn.confirmPassword')}
        dependencies={['password']}
        rules={[rules.required, rules.sameAs('password')]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={create.isPending}>
        {t('signIn.createPassword')}
      </Button>
      <div style={{ marginTop: 16 }}>
        <Link to={`/${tier}/login`}>{t('signIn.backToLogin')}</Link>
      </div>
    </Form>
  );
}
