import { PAGE_SIZE_OPTIONS } from '@edgekeep/contract/constants';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Descriptions, Space, Table, type TableColumnsType, type TableProps } from 'antd';
import { useState, type Key, type ReactNode } from 'react';
import { useListParams, type ListQuery } from './list-params';

export type Page<T> = { data: T[]; total: number };
/** A column; with `detail`, it is left out of the table and shown when the row opens (wide lists). */
export type Column<T> = TableColumnsType<T>[number] & { detail?: boolean };

/** The value a column shows for a row, as the table would render it. */
function cell<T>(column: Column<T>, row: T, index: number): ReactNode {
  const value = 'dataIndex' in column && typeof column.dataIndex === 'string' ? row[column.dataIndex as keyof T] : undefined;
  return (column.render ? column.render(value, row, index) : value) as ReactNode;
}

/** The row's detail: each detail column's title and value. */
function detailOf<T>(columns: Column<T>[]): TableProps<T>['expandable'] {
  return {
    expandedRowRender: (row, index) => (
      <Descriptions
        size="small"
        layout="vertical"
        column={{ xs: 1, md: 2, xl: 3 }}
        items={columns.map((c) => ({ key: String(c.key), label: c.title as ReactNode, children: cell(c, row, index) }))}
      />
    ),
  };
}

type Props<T> = {
  /** The react-query key of the list; the URL's paging, sort and filters are appended. */
  queryKey: readonly unknown[];
  fetch: (query: ListQuery) => Promise<Page<T>>;
  /** A column with `sorter: true` sorts by its `key` (the API's sortBy name); `detail` ones show in the opened row. */
  columns: Column<T>[];
  rowKey: (keyof T & string) | ((row: T) => string);
  /** Filters above the table (FilterBar inputs); they read and write the URL through useListParams. */
  filters?: ReactNode;
  /** Buttons above the table; with `batch`, rows get checkboxes and the buttons get the chosen keys. */
  toolbar?: ReactNode;
  batch?: (selected: Key[], clear: () => void) => ReactNode;
  /** Poll the list (for example the node list every 5000 ms), or only while the page shown asks for it (false: stop). */
  refetchInterval?: number | ((page: Page<T> | undefined) => number | false);
  /** Rows that open to show more (antd's expandable), for a list whose columns have no `detail`. */
  expandable?: TableProps<T>['expandable'];
  /** The URL scope of a second list on the same screen (see useListParams). */
  scope?: string;
};

/**
 * The one list component: paging (page size 10, options 25–500), sort and filters in the URL, emptied while
 * loading, the component library's empty state, optional batch actions over chosen rows.
 */
export function DataTable<T extends object>(props: Props<T>) {
  const list = useListParams(props.scope);
  const [selected, setSelected] = useState<Key[]>([]);
  const result = useQuery({
    queryKey: [...props.queryKey, list.query],
    queryFn: () => props.fetch(list.query),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (typeof props.refetchInterval === 'function' ? props.refetchInterval(q.state.data) : props.refetchInterval),
  });
  const loading = result.isFetching && result.isPlaceholderData;
  // A poll refreshes the rows in place; the spinner is for what the user asked for.
  const polling = props.refetchInterval !== undefined && result.isRefetching && !result.isPlaceholderData;
  const details = props.columns.filter((c) => c.detail);
  const columns = props.columns
    .filter((c) => !c.detail)
    .map((c) => (c.sorter === true && c.key ? { ...c, sortOrder: list.sortBy === c.key ? (list.orderBy ?? null) : null } : c));
  const onChange: TableProps<T>['onChange'] = (pagination, _filters, sorter) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    const sortBy = s?.order ? String(s.columnKey) : undefined;
    const sortChanged = sortBy !== list.sortBy || (s?.order ?? undefined) !== list.orderBy;
    list.update(
      {
        page: sortChanged ? undefined : pagination.current,
        pageSize: pagination.pageSize,
        sortBy,
        orderBy: s?.order ?? undefined,
      },
      { keepPage: !sortChanged },
    );
  };
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      {props.filters || props.toolbar || props.batch ? (
        <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
          <Space wrap>{props.filters}</Space>
          <Space wrap>
            {props.batch?.(selected, () => setSelected([]))}
            {props.toolbar}
          </Space>
        </Space>
      ) : null}
      <Table<T>
        rowKey={props.rowKey}
        columns={columns}
        dataSource={loading ? [] : (result.data?.data ?? [])}
        loading={result.isFetching && !polling}
        expandable={details.length ? detailOf(details) : props.expandable}
        onChange={onChange}
        rowSelection={props.batch ? { selectedRowKeys: selected, onChange: setSelected } : undefined}
        pagination={{
          current: list.page,
          pageSize: list.pageSize,
          total: result.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [10, ...PAGE_SIZE_OPTIONS],
        }}
        scroll={{ x: 'max-content' }}
      />
    </Space>
  );
}
