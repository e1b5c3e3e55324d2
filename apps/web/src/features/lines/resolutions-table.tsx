import { Space, Tag, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/data-table';
import { SelectFilter, TextFilter } from '../../components/filter-bar';
import { formatDate } from '../../lib/dates';
import { LINE_KEYS } from './line-label';
import { fetchResolutions, lineKeys, type Resolution } from './queries';

/** What each site's CNAME resolves to on its line in the zone: the healthy addresses of its group. */
export function ResolutionsTable({ zoneID, zonePicker }: { zoneID: number; zonePicker: React.ReactNode }) {
  const { t } = useTranslation();
  const columns: TableColumnsType<Resolution> = [
    { key: 'siteName', dataIndex: 'siteName', title: t('nodeExtras.site'), sorter: true },
    { key: 'cname', dataIndex: 'cname', title: t('clientSites.cname'), sorter: true, render: (v: string) => <Typography.Text copyable>{v}</Typography.Text> },
    { key: 'line', dataIndex: 'line', title: t('lines.line'), sorter: true, render: (l: Resolution['line']) => t(LINE_KEYS[l]) },
    { key: 'groupName', dataIndex: 'groupName', title: t('nodeExtras.group') },
    {
      key: 'records',
      title: t('nodeExtras.answers'),
      render: (_, r) =>
        r.records.length ? (
          <Space size={[4, 4]} wrap>
            {r.records.map((x) => (
              <Tag key={`${x.type}-${x.value}`} color={x.subNode ? 'purple' : x.type === 'CNAME' ? 'cyan' : 'blue'}>{`${x.type} ${x.value}`}</Tag>
            ))}
            {r.backup ? <Tag color="orange">{t('nodeExtras.backupAnswering')}</Tag> : null}
          </Space>
        ) : (
          <Tag color="red">{t('nodeExtras.noHealthyNode')}</Tag>
        ),
    },
    { key: 'updatedAt', dataIndex: 'updatedAt', title: t('nodeExtras.computedAt'), sorter: true, render: (v: string) => formatDate(v) },
  ];
  return (
    <DataTable<Resolution>
      queryKey={lineKeys.resolutions(zoneID)}
      fetch={(q) => fetchResolutions(zoneID, q)}
      columns={columns}
      rowKey="id"
      filters={
        <>
          {zonePicker}
          <TextFilter name="cname" placeholder={t('clientSites.cname')} />
          <SelectFilter name="line" placeholder={t('lines.line')} options={Object.entries(LINE_KEYS).map(([value, key]) => ({ value, label: t(key) }))} />
        </>
      }
    />
  );
}
