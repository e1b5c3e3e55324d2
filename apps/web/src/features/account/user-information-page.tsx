import { useMutation } from '@tanstack/react-query';
import { Button, Card, Form, Input, Space, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { accountCalls } from '../../api/account';
import type { UpdateSelfBody } from '../../api/types';
import { toast } from '../../app/feedback';
import { queryClient } from '../../app/query-client';
import { selfQueryKey, useSelf } from '../../app/use-self';
import { useTier } from '../../app/use-tier';
import { useFormRules } from '../../components/form-rules';
import { SelfDescriptions } from './self-descriptions';
import { TwoFactorCard } from './two-factor-card';

export default function UserInformationPage() {
  const { t } = useTranslation();
  const tier = useTier();
  const rules = useFormRules();
  const self = useSelf(tier).data!;
  const save = useMutation({
    mutationFn: async (body: UpdateSelfBody) => (await accountCalls()).updateSelf(tier, body),
    onSuccess: (next) => {
      queryClient.setQueryData(selfQueryKey(tier), next);
      toast.success(t('message.updateInformationSuccess'));
    },
  });
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Card title={t('account.profile')}>
        <SelfDescriptions self={self} />
      </Card>
      <Card title={t('account.edit')} style={{ maxWidth: 560 }}>
        <Form<UpdateSelfBody>
          layout="vertical"
          initialValues={{ name: self.name, loginNotify: self.loginNotify }}
          onFinish={(v) => save.mutate(v)}
          onFinishFailed={() => toast.error(t('validation.checkForm'))}
          requiredMark={false}
        >
          <Form.Item name="name" label={t('account.name')} rules={[rules.required, rules.name]}>
            <Input />
          </Form.Item>
          <Form.Item name="loginNotify" label={t('account.loginNotify')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            {t('common.save')}
          </Button>
        </Form>
      </Card>
      <TwoFactorCard tier={tier} login2FAType={self.login2FAType} />
    </Space>
  );
}
