import { useMutation } from '@tanstack/react-query';
import { DownOutlined } from '@ant-design/icons';
import { Badge, Button, Card, Dropdown, Popconfirm, Space, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { useSelf } from '../../app/use-self';
import { useTier } from '../../app/use-tier';
import { DataTable } from '../../components/data-table';
import { SelectFilter, TextFilter } from '../../components/filter-bar';
import { formatDate } from '../../lib/dates';
import { AccountFormModal } from './account-form-modal';
import { KINDS, switchUserUrl } from './account-kinds';
import { PasswordModal } from './password-modal';
import { accountCalls, accountKeys, cachedAccounts, refreshAccounts, useClientAccounts, type AccountItem } from './queries';
import { SubsModal } from './subs-modal';

type Editing = { account?: AccountItem } | undefined;

/** usersList (user) and users (client, admin): the accounts below the signed-in one. */
export default function UsersPage() {
  const { t } = useTranslation();
  const tier = useTier();
  const self = useSelf(tier).data!;
  const can = useCan();
  const mayEdit = can('accounts.edit');
  const [editing, setEditing] = useState<Editing>();
  const [password, setPassword] = useState<AccountItem>();
  const [subsOf, setSubsOf] = useState<AccountItem>();
  const clients = useClientAccounts(tier);
  const refresh = () => refreshAccounts(tier);
  const remove = useMutation({
    mutationFn: (accounts: AccountItem[]) => accountCalls.remove(tier, accounts.map((a) => a.id)),
    onSuccess: (_, accounts) => {
      const kinds = new Set(accounts.map((a) => a.auth));
      const auth = kinds.size === 1 ? [...kinds][0] : KINDS[tier][0];
      toast.success(t('message.removeAuthSuccess', { auth: t(`tier.${auth}`) }));
      void refresh();
    },
  });
  const resend = useMutation({
    mutationFn: (a: AccountItem) => accountCalls.resendEmail(tier, a.id),
    onSuccess: () => toast.success(t('message.resendEmailSuccess')),
  });
  const switchInto = useMutation({ mutationFn: (a: AccountItem) => accountCalls.proxy(tier, a.id) });
  /** The tab opens at the click (a popup opened after a call would be blocked), and is sent on once the tokens arrive. */
  const openSwitchedTab = (a: AccountItem) => {
    const tab = window.open('about:blank', '_blank');
    return switchInto.mutateAsync(a).then(
      (r) => {
        if (tab) tab.location.href = switchUserUrl(r);
        else window.open(switchUserUrl(r), '_blank');
      },
      () => tab?.close(),
    );
  };

  // createdBy and the parent links are ids: shown as e-mails where the console knows the account.
  const who = (id: number | null) => {
    if (id === null) return '---';
    if (id === self.id) return self.email;
    return [...cachedAccounts(tier), ...(clients.data?.data ?? [])].find((a) => a.id === id)?.email ?? `#${id}`;
  };
  const yesNo = (v: boolean) => <Badge status={v ? 'success' : 'default'} text={v ? t('common.yes') : t('common.no')} />;

  const columns: TableColumnsType<AccountItem> = [
    { key: 'email', title: t('account.email'), dataIndex: 'email', sorter: true, fixed: 'left' },
    { key: 'name', title: t('account.name'), dataIndex: 'name', sorter: true },
    ...(tier === 'user'
      ? []
      : [{ key: 'auth', title: t('users.kind'), sorter: true, render: (_: unknown, a: AccountItem) => <Tag color="blue">{t(`tier.${a.auth}`)}</Tag> }]),
    { key: 'role', title: t('users.role'), render: (_, a) => (a.isRoot ? <Tag color="gold">{t('account.root')}</Tag> : (a.roleName ?? '---')) },
    { key: 'grade', title: t('users.grade'), dataIndex: 'grade' },
    { key: 'enabled', title: t('users.enabled'), render: (_, a) => yesNo(a.enabled) },
    { key: 'emailConfirmed', title: t('account.emailConfirmed'), render: (_, a) => yesNo(a.emailConfirmed) },
    { key: 'loginNotify', title: t('account.loginNotify'), render: (_, a) => yesNo(a.loginNotify) },
    { key: 'authenticator', title: t('account.twoFactorApp'), render: (_, a) => yesNo(a.authenticator) },
    { key: 'parent', title: t('users.parent'), render: (_, a) => who(a.parentUserID ?? a.parentClientID ?? a.clientID) },
    { key: 'createdBy', title: t('users.createdBy'), render: (_, a) => who(a.createdBy) },
    { key: 'expiredAt', title: t('account.expiredAt'), sorter: true, render: (_, a) => formatDate(a.expiredAt) || t('account.never') },
    { key: 'createdAt', title: t('account.createdAt'), sorter: true, render: (_, a) => formatDate(a.createdAt) },
    { key: 'updatedAt', title: t('account.updatedAt'), sorter: true, render: (_, a) => formatDate(a.updatedAt) },
    {
      key: 'actions',
      title: t('common.actions'),
      fixed: 'right',
      render: (_, a) => (
        <Space size={0} wrap data-testid={`account-actions-${a.email}`}>
          {!mayEdit && (
            <Button type="link" size="small" onClick={() => setSubsOf(a)}>
              {t('users.subs')}
            </Button>
          )}
          {mayEdit && (
            <>
              <Button type="link" size="small" onClick={() => setEditing({ account: a })}>
                {t('common.edit')}
              </Button>
              <Dropdown
                trigger={['click']}
                menu={{
                  items: [
                    { key: 'subs', label: t('users.subs'), onClick: () => setSubsOf(a) },
                    { key: 'password', label: t('users.editPassword'), onClick: () => setPassword(a) },
                    ...(a.emailConfirmed ? [] : [{ key: 'resend', label: t('users.resendEmail'), onClick: () => resend.mutate(a) }]),
                  ],
                }}
              >
                <Button type="link" size="small">
                  {t('common.more')} <DownOutlined />
                </Button>
              </Dropdown>
              <Popconfirm
                title={t('users.switchInto')}
                description={a.auth === tier ? t('users.switchSameTier') : t('users.switchConfirm', { email: a.email })}
                okText={t('common.confirm')}
                cancelText={t('common.cancel')}
                onConfirm={() => openSwitchedTab(a)}
              >
                <Button type="link" size="small" disabled={!a.enabled}>
                  {t('users.switchInto')}
                </Button>
              </Popconfirm>
              <Popconfirm
                title={t('users.removeConfirm', { email: a.email })}
                description={t('users.removeHint')}
                okText={t('common.confirm')}
                okButtonProps={{ danger: true }}
                cancelText={t('common.cancel')}
                onConfirm={() => remove.mutateAsync([a])}
              >
                <Button type="link" size="small" danger>
                  {t('common.remove')}
                </Button>
              </Popconfirm>
            </>
          )}
        </Space>
      ),
    },
  ];

  const kindOptions = KINDS[tier].map((k) => ({ value: k, label: t(`tier.${k}`) }));
  return (
    <Card title={t('menu.users')}>
      <DataTable<AccountItem>
        queryKey={accountKeys.list(tier)}
        fetch={(query) => accountCalls.list(tier, query)}
        rowKey="id"
        columns={columns}
        filters={
          <>
            <TextFilter name="name" placeholder={t('users.searchName')} />
            {tier !== 'user' && <SelectFilter name="auth" placeholder={t('users.kind')} options={kindOptions} />}
            {tier !== 'user' && (
              <SelectFilter
                name="client"
                placeholder={t('users.client')}
                options={(clients.data?.data ?? []).map((c) => ({ value: c.id, label: c.email }))}
              />
            )}
          </>
        }
        toolbar={
          mayEdit && (
            <Button type="primary" onClick={() => setEditing({})}>
              {t('users.create')}
            </Button>
          )
        }
        batch={
          mayEdit
            ? (selected, clear) => (
                <Popconfirm
                  title={t('users.removeSelected', { count: selected.length })}
                  description={t('users.removeHint')}
                  okText={t('common.confirm')}
                  okButtonProps={{ danger: true }}
                  cancelText={t('common.cancel')}
                  disabled={!selected.length}
                  onConfirm={() => remove.mutateAsync(cachedAccounts(tier).filter((a) => selected.includes(a.id))).then(clear)}
                >
                  <Button danger disabled={!selected.length}>
                    {t('common.removeSelected')}
                  </Button>
                </Popconfirm>
              )
            : undefined
        }
      />
      <AccountFormModal tier={tier} account={editing?.account} open={editing !== undefined} onClose={() => setEditing(undefined)} />
      <PasswordModal tier={tier} account={password} onClose={() => setPassword(undefined)} />
      <SubsModal tier={tier} account={subsOf} onClose={() => setSubsOf(undefined)} />
    </Card>
  );
}
