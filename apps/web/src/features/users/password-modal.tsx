import { useMutation } from '@tanstack/react-query';
import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Tier } from '@edgekeep/contract/tiers';
import { toast } from '../../app/feedback';
import { useFormRules } from '../../components/form-rules';
import { accountCalls, type AccountItem } from './queries';

type Fields = { password: string; confirmPassword: string };

/** Sets the password of an account below (PUT {area}/account/password); the account is signed out everywhere. */
export function PasswordModal({ tier, account, onClose }: { tier: Tier; account?: AccountItem; onClose: () => void }) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<Fields>();
  const save = useMutation({
    mutationFn: (v: Fields) => accountCalls.setPassword(tier, { id: account!.id, password: v.password }),
    onSuccess: () => {
      toast.success(t('message.changePasswordSuccess'));
      onClose();
    },
  });
  return (
    <Modal
      open={account !== undefined}
      title={`${t('users.editPassword')} · ${account?.email ?? ''}`}
      okText={t('common.submit')}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={save.isPending}
      destroyOnHidden
      forceRender
    >
      <Form<Fields> form={form} layout="vertical" onFinish={(v) => save.mutate(v)} preserve={false} data-testid="password-form">
        <Form.Item name="password" label={t('account.newPassword')} rules={[rules.required, rules.password]}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="confirmPassword" label={t('account.confirmPassword')} dependencies={['password']} rules={[rules.required, rules.sameAs('password')]}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
