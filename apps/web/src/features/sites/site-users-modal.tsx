import { useQuery } from '@tanstack/react-query';
import { Checkbox, Empty, List, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { siteOptionsApi } from '../../api/site-options';
import type { Site } from '../../api/sites';
import { useSubUsers } from '../users/queries';
import { optionKeys } from './option-keys';
import { keys } from './query-keys';
import { useSiteMutation } from './use-site-mutation';

/** Shares a site with the user's own sub-users; a sub-user reaches only the sites shared with it. */
export function SiteUsersModal({ site, onClose }: { site: Site; onClose: () => void }) {
  const { t } = useTranslation();
  const subs = useSubUsers();
  const shared = useQuery({ queryKey: optionKeys.siteUsers(site.id), queryFn: () => siteOptionsApi.siteUsers(site.id) });
  const share = useSiteMutation({
    fn: (v: { userId: number; on: boolean }) => siteOptionsApi.share({ siteIDs: [site.id], userIDs: [v.userId], on: v.on }),
    success: 'updateSuccess',
    refresh: [optionKeys.siteUsers(site.id), keys.sites],
  });
  const users = (subs.data?.data ?? []).filter((u) => !u.isRoot);
  const isShared = (id: number) => (shared.data ?? []).some((u) => u.id === id);
  return (
    <Modal open title={t('siteOptions.siteUsersTitle', { name: site.name })} onCancel={onClose} footer={null}>
      <Typography.Paragraph type="secondary">{t('siteOptions.siteUsersHint')}</Typography.Paragraph>
      {users.length || subs.isFetching ? (
        <List
          loading={subs.isFetching || shared.isFetching}
          dataSource={users}
          renderItem={(u) => (
            <List.Item>
              <Checkbox checked={isShared(u.id)} disabled={share.isPending} onChange={(e) => share.mutate({ userId: u.id, on: e.target.checked })} data-testid={`share-${u.email}`}>
                {u.name} <Typography.Text type="secondary">{u.email}</Typography.Text>
              </Checkbox>
            </List.Item>
          )}
        />
      ) : (
        <Empty description={t('siteOptions.noSubUsers')} />
      )}
    </Modal>
  );
}
