import { useMutation } from '@tanstack/react-query';
import { Button, Card, Popconfirm, Space, Tooltip, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { permissionKeys } from '@edgekeep/contract/permissions';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { useTier } from '../../app/use-tier';
import { DataTable } from '../../components/data-table';
import { formatDate } from '../../lib/dates';
import { refreshRoles, roleKeys, roles, type RoleItem } from './queries';

/** The tenant's custom roles: each holds a subset of the tier's permission keys. */
export default function RolesPage() {
  const { t } = useTranslation();
  const tier = useTier();
  const navigate = useNavigate();
  const mayEdit = useCan()('roles.edit');
  const total = permissionKeys(tier).length;
  const remove = useMutation({
    mutationFn: (role: RoleItem) => roles.remove(tier, role.id),
    onSuccess: () => {
      toast.success(t('message.removeRoleSuccess'));
      void refreshRoles(tier);
    },
  });
  const columns: TableColumnsType<RoleItem> = [
    { key: 'roleName', title: t('roles.name'), dataIndex: 'roleName' },
    { key: 'permissions', title: t('roles.permissions'), render: (_, r) => `${r.permissions.length} / ${total}` },
    { key: 'accountCount', title: t('roles.accountCount'), dataIndex: 'accountCount' },
    { key: 'createdAt', title: t('account.createdAt'), render: (_, r) => formatDate(r.createdAt) },
    { key: 'updatedAt', title: t('account.updatedAt'), render: (_, r) => formatDate(r.updatedAt) },
    ...(mayEdit
      ? [
          {
            key: 'actions',
            title: t('common.actions'),
            render: (_: unknown, r: RoleItem) => (
              <Space size={0} data-testid={`role-actions-${r.roleName}`}>
                <Button type="link" size="small" onClick={() => navigate(`/${tier}/userManagement/roles/${r.id}`)}>
                  {t('common.edit')}
                </Button>
                <Popconfirm
                  title={t('roles.removeConfirm', { name: r.roleName })}
                  okText={t('common.confirm')}
                  okButtonProps={{ danger: true }}
                  cancelText={t('common.cancel')}
                  disabled={r.accountCount > 0}
                  onConfirm={() => remove.mutateAsync(r)}
                >
                  <Tooltip title={r.accountCount > 0 ? t('roles.inUse') : undefined}>
                    <Button type="link" size="small" danger disabled={r.accountCount > 0}>
                      {t('common.remove')}
                    </Button>
                  </Tooltip>
                </Popconfirm>
              </Space>
            ),
          },
        ]
      : []),
  ];
  return (
    <Card title={t('menu.roles')}>
      <DataTable<RoleItem>
        queryKey={roleKeys.list(tier)}
        fetch={(query) => roles.list(tier, query)}
        rowKey="id"
        columns={columns}
        toolbar={
          mayEdit && (
            <Button type="primary" onClick={() => navigate(`/${tier}/userManagement/roles/create`)}>
              {t('roles.create')}
            </Button>
          )
        }
      />
    </Card>
  );
}
