import { Modal, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_PAGE_SIZE } from '@edgekeep/contract/constants';
import type { Tier } from '@edgekeep/contract/tiers';
import { useSubAccounts, type AccountItem } from './queries';
import { formatDate } from '../../lib/dates';

/** The accounts directly below one account (GET {area}/account/{userId}/subs). */
export function SubsModal({ tier, account, onClose }: { tier: Tier; account?: AccountItem; onClose: () => void }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const subs = useSubAccounts(tier, account?.id, page);
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
