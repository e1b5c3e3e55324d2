import { useMutation } from '@tanstack/react-query';
import { Button, Card, Form, Input, Result, Space, Spin, Tree, Typography } from 'antd';
import { useState, type Key } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { useTier } from '../../app/use-tier';
import { useFormRules } from '../../components/form-rules';
import { currentLanguage } from '../../i18n';
import { checkedPermissions, permissionTree } from './permission-tree';
import { refreshRoles, roles, useRole, type RoleBody, type RoleItem } from './queries';

/** roles/create and roles/{id}: a role's name and its permission keys, picked in a tree grouped by menu. */
export default function RoleFormPage() {
  const { roleId } = useParams();
  const tier = useTier();
  const { t } = useTranslation();
  const id = roleId === undefined ? undefined : Number(roleId);
  const role = useRole(tier, id);
  if (id === undefined) return <RoleForm />;
  if (role.isPending) return <Spin />;
  if (!role.data) return <Result status="404" title={t('roles.notFound')} />;
  return <RoleForm role={role.data} />;
}

function RoleForm({ role }: { role?: RoleItem }) {
  const { t } = useTranslation();
  const tier = useTier();
  const can = useCan();
  const rules = useFormRules();
  const navigate = useNavigate();
  const [checked, setChecked] = useState<Key[]>(role?.permissions ?? []);
  const back = () => navigate(`/${tier}/userManagement/roles`);
  const save = useMutation({
    mutationFn: (body: RoleBody) => roles.save(tier, body, role?.id),
    onSuccess: () => {
      toast.success(role ? t('message.updateRoleSuccess') : t('message.createRoleSuccess'));
      void refreshRoles(tier);
      back();
    },
    onError: () => {
      if (!role) toast.error(t('message.createRoleFailed'));
    },
  });
  // useTranslation renders again on a language switch, so the labels follow it.
  const tree = permissionTree(tier, currentLanguage(), (k) => can(k));
  return (
    <Card title={role ? t('roles.edit') : t('roles.create')}>
      <Form<{ roleName: string }>
        layout="vertical"
        initialValues={{ roleName: role?.roleName ?? '' }}
        onFinish={(v) => save.mutate({ roleName: v.roleName.trim(), permissions: checkedPermissions(tier, checked) })}
        onFinishFailed={() => toast.error(t('validation.checkForm'))}
        style={{ maxWidth: 640 }}
        data-testid="role-form"
      >
        <Form.Item name="roleName" label={t('roles.name')} rules={[rules.required, { max: 64, message: t('validation.wrongFormat') }]}>
          <Input />
        </Form.Item>
        <Form.Item label={t('roles.permissions')} extra={t('roles.treeHint')}>
          <Typography.Text type="secondary">{t('roles.chosen', { count: checkedPermissions(tier, checked).length })}</Typography.Text>
          <Tree
            checkable
            defaultExpandAll
            selectable={false}
            treeData={tree}
            checkedKeys={checked}
            onCheck={(keys) => setChecked(Array.isArray(keys) ? keys : keys.checked)}
            data-testid="permission-tree"
          />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            {t('common.submit')}
          </Button>
          <Button onClick={back}>{t('common.cancel')}</Button>
        </Space>
      </Form>
    </Card>
  );
}
