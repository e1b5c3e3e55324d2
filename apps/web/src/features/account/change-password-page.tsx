import { useMutation } from '@tanstack/react-query';
import { Button, Card, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { accountCalls } from '../../api/account';
import { toast } from '../../app/feedback';
import { useTier } from '../../app/use-tier';
import { useFormRules } from '../../components/form-rules';

type Fields = { oldPassword: string; newPassword: string; confirmPassword: string };

export default function ChangePasswordPage() {
  const { t } = useTranslation();
  const tier = useTier();
  const rules = useFormRules();
  const [form] = Form.useForm<Fields>();
  const change = useMutation({
    mutationFn: async ({ oldPassword, newPassword }: Fields) => (await accountCalls()).changePassword(tier, { oldPassword, newPassword }),
    onSuccess: () => {
      form.resetFields();
      toast.success(t('message.changePasswordSuccess'));
    },
  });
  return (
    <Card title={t('menu.changePassword')} style={{ maxWidth: 560 }}>
      <Form form={form} layout="vertical" onFinish={(v) => change.mutate(v)} requiredMark={false}>
        <Form.Item name="oldPassword" label={t('account.oldPassword')} rules={[rules.required]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item name="newPassword" label={t('account.newPassword')} rules={[rules.required, rules.password]}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirmPassword"
          label={t('account.confirmPassword')}
          dependencies={['newPassword']}
          rules={[rules.required, rules.sameAs('newPassword')]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={change.isPending}>
          {t('common.submit')}
        </Button>
      </Form>
    </Card>
  );
}
