import { Button, Card, Popconfirm, Tag, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../app/use-self';
import { DataTable } from '../../components/data-table';
import { SelectFilter, TextFilter } from '../../components/filter-bar';
import { useListParams } from '../../components/list-params';
import { formatDate } from '../../lib/dates';
import { useSiteMutation } from '../sites/use-site-mutation';
import { useZoneOptions } from '../zones/use-meta-zones';
import { blocked, firewallKeys, useBlockListSites, type BlockedIp } from './queries';

type Row = BlockedIp & { key: string };
const keyOf = (b: { siteID: number; ip: string }) => `${b.siteID}|${b.ip}`;
const blockOf = (key: string) => ({ siteID: Number(key.split('|')[0]), ip: key.slice(key.indexOf('|') + 1) });

/** sitesManagement/blockList (user mode): addresses the edge blocks now, on one site or all of them. */
export default function BlockListPage() {
  return <BlockList mode="user" />;
}

/**
 * Blocked addresses with site, cause and expiry (both modes under the blockList keys); user mode reaches the
 * user's sites, client mode (nodeManage/blockList) the sites of the client's users, with a zone filter.
 */
export function BlockList({ mode }: { mode: 'user' | 'client' }) {
  const { t } = useTranslation();
  const user = mode === 'user';
  const editable = useCan()('blockList.edit');
  const list = useListParams();
  const sites = useBlockListSites(mode);
  const zones = useZoneOptions(!user);
  const siteId = Number(list.filters.siteID) || undefined;
  const zoneId = Number(list.filters.zoneID) || undefined;
  const refresh = [firewallKeys.blocked(mode)];
  const unblock = useSiteMutation({ fn: (keys: string[]) => blocked.unblock(mode, keys.map(blockOf)), success: 'updateSuccess', refresh });
  const unblockAll = useSiteMutation({
    fn: async () => {
      if (!user) return void (await blocked.unblockClient({ siteID: siteId, zoneID: zoneId }));
      const ids = siteId ? [siteId] : (sites.data ?? []).map((s) => s.id);
      for (const id of ids) await blocked.unblockSite(id);
    },
    success: 'updateSuccess',
    refresh,
  });
  const columns: TableColumnsType<Row> = [
    { key: 'ip', title: t('firewall.ip'), sorter: true, render: (_, r) => <Typography.Text code>{r.ip}</Typography.Text> },
    { key: 'siteName', title: t('blockList.site'), dataIndex: 'siteName' },
    { key: 'cause', title: t('blockList.cause'), sorter: true, render: (_, r) => <Tag>{r.cause}</Tag> },
    { key: 'expiresAt', title: t('blockList.expiresAt'), sorter: true, render: (_, r) => formatDate(r.expiresAt) },
    { key: 'nodes', title: t('blockList.nodes'), dataIndex: 'nodes', width: 90 },
  ];
  return (
    <Card title={t('menu.blockList')}>
      <DataTable<Row>
        queryKey={firewallKeys.blocked(mode)}
        fetch={async (query) => {
          const page = await blocked.list(mode, query);
          return { ...page, data: page.data.map((b) => ({ ...b, key: keyOf(b) })) };
        }}
        columns={columns}
        rowKey="key"
        filters={
          <>
            <SelectFilter name="siteID" placeholder={t('blockList.allSites')} options={(sites.data ?? []).map((s) => ({ value: s.id, label: s.name }))} />
            {user ? null : (
              <SelectFilter name="zoneID" placeholder={t('blockList.allZones')} options={zones} />
            )}
            <TextFilter name="ips" placeholder={t('blockList.ips')} />
            <TextFilter name="causes" placeholder={t('blockList.causes')} />
          </>
        }
        batch={
          editable
            ? (selected, clear) => (
                <Popconfirm title={t('blockList.confirmUnblock', { count: selected.length })} disabled={!selected.length} onConfirm={() => unblock.mutate(selected.map(String), { onSuccess: clear })}>
                  <Button disabled={!selected.length} data-testid="unblock-chosen">
                    {t('blockList.unblockChosen', { count: selected.length })}
                  </Button>
                </Popconfirm>
              )
            : undefined
        }
        toolbar={
          editable ? (
            <Popconfirm title={t(siteId ? 'blockList.confirmAllSite' : zoneId ? 'blockList.confirmAllZone' : 'blockList.confirmAll')} onConfirm={() => unblockAll.mutate()}>
              <Button danger data-testid="unblock-all">{t('blockList.unblockAll')}</Button>
            </Popconfirm>
          ) : null
        }
      />
    </Card>
  );
}
