import { useQuery } from '@tanstack/react-query';
import { Checkbox, Empty, List, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSubUsers } from '../users/queries';
import { useSiteMutation } from './use-site-mutation';
import { siteCalls, siteKeys, type Site } from './queries';

/** Shares a site with the user's own sub-users; a sub-user reaches only the sites shared with it. */
export function SiteUsersModal({ site, onClose }: { site: Site; onClose: () => void }) {
  const { t } = useTranslation();
  const subs = useSubUsers();
  const shared = useQuery({ queryKey: siteKeys.siteUsers(site.id), queryFn: () => siteCalls.siteUsers(site.id) });
  const share = useSiteMutation({
    fn: (v: { userId: number; on: boolean }) => siteCalls.share({ siteIDs: [site.id], userIDs: [v.userId], on: v.on }),
    success: 'updateSuccess',
    refresh: [siteKeys.siteUsers(site.id), siteKeys.sites],
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
