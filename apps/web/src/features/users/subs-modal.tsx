import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Modal, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_PAGE_SIZE } from '@edgekeep/contract/constants';
import type { Tier } from '@edgekeep/contract/tiers';
import { accountsApi } from '../../api/accounts';
import type { AccountItem } from '../../api/types';
import { formatDate } from '../../lib/dates';

/** The accounts directly below one account (GET {area}/account/{userId}/subs). */
export function SubsModal({ tier, account, onClose }: { tier: Tier; account?: AccountItem; onClose: () => void }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const subs = useQuery({
    queryKey: ['accounts', tier, 'subs', account?.id, page],
    queryFn: () => accountsApi.subs(tier, account!.id, { page, pageSize: DEFAULT_PAGE_SIZE }),
    enabled: account !== undefined,
    placeholderData: keepPreviousData,
  });
  return (
    <Modal open={account !== undefined} title={`${t('users.subs')} · ${account?.email ?? ''}`} footer={null} onCancel={onClose} width={760} destroyOnHidden>
      <Table<AccountItem>
        rowKey="id"
        size="small"
        loading={subs.isFetching}
        dataSource={subs.data?.data ?? []}
        pagination={{ current: page, pageSize: DEFAULT_PAGE_SIZE, total: subs.data?.total ?? 0, onChange: setPage }}
        columns={[
          { key: 'email', title: t('account.email'), dataIndex: 'email' },
          { key: 'name', title: t('account.name'), dataIndex: 'name' },
          { key: 'auth', title: t('users.kind'), render: (_, a) => <Tag color="blue">{t(`tier.${a.auth}`)}</Tag> },
          { key: 'role', title: t('users.role'), render: (_, a) => a.roleName ?? '---' },
          { key: 'createdAt', title: t('account.createdAt'), render: (_, a) => formatDate(a.createdAt) },
        ]}
      />
    </Modal>
  );
}
