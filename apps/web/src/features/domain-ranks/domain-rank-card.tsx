import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS } from '@edgekeep/contract/constants';
import { Card, Table, type TableProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../lib/units';
import { useDomainRanks, type DomainRank, type RankSort as Sort } from './queries';

/** Spec §9: the ranking's page size is kept in local storage, not in the address. */
export const PAGE_SIZE_KEY = 'edgekeep.domainRank.pageSize';
const SIZES = [DEFAULT_PAGE_SIZE, ...PAGE_SIZE_OPTIONS];
const LOADING = '---';

export const storedPageSize = () => {
  const stored = Number(localStorage.getItem(PAGE_SIZE_KEY));
  return SIZES.includes(stored as (typeof SIZES)[number]) ? stored : DEFAULT_PAGE_SIZE;
};

/** The user dashboard's domain ranking (spec §2): this month's domains by traffic or requests, paged and sortable. */
export function DomainRankCard() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(storedPageSize);
  const [sort, setSort] = useState<Sort>({ sortBy: 'traffic', orderBy: 'desc' });
  const ranks = useDomainRanks(page, pageSize, sort);
  const order = (key: Sort['sortBy']) => (sort.sortBy === key ? (sort.orderBy === 'asc' ? 'ascend' : 'descend') : null);
  const columns: TableProps<DomainRank>['columns'] = [
    { key: 'rank', title: t('domainRank.rank'), width: 80, render: (_v, _r, i) => (page - 1) * pageSize + i + 1 },
    { key: 'domain', dataIndex: 'domain', title: t('domainRank.domain') },
    { key: 'traffic', dataIndex: 'traffic', title: t('domainRank.traffic'), sorter: true, sortOrder: order('traffic'), sortDirections: ['descend', 'ascend', 'descend'], render: (v: number) => formatBytes(v) },
    { key: 'reqCount', dataIndex: 'reqCount', title: t('domainRank.reqCount'), sorter: true, sortOrder: order('reqCount'), sortDirections: ['descend', 'ascend', 'descend'], render: (v: number) => v.toLocaleString() },
  ];
  const onChange: TableProps<DomainRank>['onChange'] = (p, _f, sorter) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    const size = p.pageSize ?? pageSize;
    if (size !== pageSize) {
      localStorage.setItem(PAGE_SIZE_KEY, String(size));
      setPageSize(size);
    }
    const next: Sort = s?.columnKey === 'reqCount' || s?.columnKey === 'traffic' ? { sortBy: s.columnKey, orderBy: s.order === 'ascend' ? 'asc' : 'desc' } : sort;
    const resorted = next.sortBy !== sort.sortBy || next.orderBy !== sort.orderBy;
    setSort(next);
    setPage(resorted || size !== pageSize ? 1 : (p.current ?? 1));
  };
  return (
    <Card title={t('domainRank.title')} extra={ranks.data ? t('domainRank.thisMonth') : LOADING} data-testid="domain-rank">
      <Table<DomainRank>
        rowKey="key"
        size="small"
        columns={columns}
        dataSource={ranks.data?.data ?? []}
        loading={ranks.isFetching}
        onChange={onChange}
        locale={{ emptyText: ranks.isError ? t('domainRank.failed') : t('domainRank.empty') }}
        pagination={{ current: page, pageSize, total: ranks.data?.total ?? 0, showSizeChanger: true, pageSizeOptions: SIZES, showTotal: (total) => t('domainRank.total', { total }) }}
      />
    </Card>
  );
}
