import { useMutation } from '@tanstack/react-query';
import { DatePicker, Form, Input, InputNumber, Modal, Select, Switch } from 'antd';
import dayjs from 'dayjs';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { Tier } from '@edgekeep/contract/tiers';
import { toast } from '../../app/feedback';
import { useFormRules } from '../../components/form-rules';
import { DATE_FORMATS } from '../../lib/dates';
import { useMetaRoles } from '../roles/queries';
import { createBody, isRootKind, KINDS, updateBody, type AccountFields } from './account-kinds';
import { accountCalls, refreshAccounts, type AccountItem } from './queries';

type Props = {
  tier: Tier;
  /** The account edited; undefined creates one. */
  account?: AccountItem;
  open: boolean;
  onClose: () => void;
};

/** Create or edit an account below the signed-in one (spec §3 Account fields). */
export function AccountFormModal({ tier, account, open, onClose }: Props) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const [form] = Form.useForm<AccountFields>();
  const kind = Form.useWatch('auth', form) ?? account?.auth ?? KINDS[tier][0];
  const needsRole = account ? !account.isRoot : !isRootKind(tier, kind);
  const roles = useMetaRoles(tier, open && needsRole);
  const save = useMutation({
    mutationFn: (v: AccountFields) => (account ? accountCalls.update(tier, updateBody(account, v)) : accountCalls.create(tier, createBody(tier, v))),
    onSuccess: (saved) => {
      const auth = t(`tier.${saved.auth}`);
      toast.success(account ? t('message.updateAuthSuccess', { auth }) : t('message.createAuthSuccess', { auth }));
      void refreshAccounts(tier);
      onClose();
    },
  });
  // Each opening starts from the account's values (or a new account's defaults), not from the last form.
  useEffect(() => {
    if (open) form.resetFields();
  }, [open, account, form]);
  const initial: AccountFields = account
    ? {
        name: account.name,
        roleID: account.roleID,
        expiredAt: account.expiredAt ? dayjs(account.expiredAt) : null,
        loginNotify: account.loginNotify,
        grade: account.grade,
        dnsType: account.dnsType,
        enabled: account.enabled,
      }
    : { auth: KINDS[tier][0], name: '', loginNotify: false, grade: 0 };
  return (
    <Modal
      open={open}
      title={account ? t('users.edit') : t('users.create')}
      okText={t('common.submit')}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={save.isPending}
      forceRender
    >
      <Form<AccountFields>
        form={form}
        layout="vertical"
        initialValues={initial}
        onFinish={(v) => save.mutate(v)}
        onFinishFailed={() => toast.error(t('validation.checkForm'))}
        data-testid="account-form"
      >
        {!account && KINDS[tier].length > 1 && (
          <Form.Item name="auth" label={t('users.kind')} rules={[rules.required]}>
            <Select options={KINDS[tier].map((k) => ({ value: k, label: t(`tier.${k}`) }))} />
          </Form.Item>
        )}
        {account ? (
          <Form.Item label={t('account.email')}>
            <Input value={account.email} disabled />
          </Form.Item>
        ) : (
          <Form.Item name="email" label={t('account.email')} rules={[rules.required, rules.email]}>
            <Input autoComplete="off" />
          </Form.Item>
        )}
        <Form.Item name="name" label={t('account.name')} rules={[rules.required, rules.name]}>
          <Input autoComplete="off" />
        </Form.Item>
        {!account && (
          <Form.Item name="password" label={t('users.password')} extra={t('users.passwordHint')} rules={[rules.password]}>
            <Input.Password autoComplete="new-password" />
          </Form.Item>
        )}
        {needsRole && (
          <Form.Item name="roleID" label={t('users.role')} rules={[{ required: true, message: t('validation.required') }]}>
            <Select
              loading={roles.isFetching}
              options={(roles.data ?? []).map((r) => ({ value: r.id, label: r.roleName }))}
              notFoundContent={t('users.noRoles')}
            />
          </Form.Item>
        )}
        <Form.Item name="expiredAt" label={t('account.expiredAt')} extra={t('users.expiryHint')}>
          <DatePicker showTime format={DATE_FORMATS.minute} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="grade" label={t('users.grade')}>
          <InputNumber min={0} max={1000} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        {(account?.auth ?? kind) === 'client' && (
          <Form.Item name="dnsType" label={t('users.dnsType')}>
            <Input maxLength={32} />
          </Form.Item>
        )}
        <Form.Item name="loginNotify" label={t('account.loginNotify')} valuePropName="checked">
          <Switch />
        </Form.Item>
        {account && (
          <Form.Item name="enabled" label={t('users.enabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
