import { EXPORT_TYPES } from '@edgekeep/contract/schemas/logs';
import { Button, Card, Popconfirm, Space, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useTier } from '../../app/use-tier';
import { DataTable } from '../../components/data-table';
import { SelectFilter } from '../../components/filter-bar';
import { formatDate, formatRange } from '../../lib/dates';
import { formatBytes } from '../../lib/units';
import { analyticsTier } from '../statistics/queries';
import { ApplyForm, TYPE_KEYS } from './apply-form';
import { ExportStatusTag } from './export-status';
import { downloadExport, exportKeys, fetchExports, useExportMutations, type ExportItem } from './queries';

const POLL_MS = 3000;
const busy = (page: { data: ExportItem[] } | undefined) => (page?.data.some((e) => e.status === 'processing' || e.status === 'deleting') ? POLL_MS : false);

/** Log export: apply for a file of lines, follow it while it is written, download it, retry a failed one, delete. */
export default function LogExportPage() {
  const { t } = useTranslation();
  const tier = analyticsTier(useTier());
  const { retry, remove } = useExportMutations(tier);
  const columns: TableColumnsType<ExportItem> = [
    { key: 'createdAt', title: t('logExport.column.createdAt'), sorter: true, render: (_, r) => formatDate(r.createdAt) },
    { key: 'type', title: t('logExport.column.type'), sorter: true, render: (_, r) => t(TYPE_KEYS[r.type]) },
    { key: 'startTime', title: t('logExport.column.window'), sorter: true, render: (_, r) => formatRange({ start: r.startTime, end: r.endTime }) },
    { key: 'status', title: t('logExport.column.status'), sorter: true, render: (_, r) => <ExportStatusTag item={r} /> },
    { key: 'rows', title: t('logExport.column.rows'), render: (_, r) => (r.totalRows === null ? r.rows : `${r.rows} / ${r.totalRows}`) },
    { key: 'size', title: t('logExport.column.size'), sorter: true, render: (_, r) => (r.status === 'completed' ? formatBytes(r.size) : '-') },
    { key: 'finishedAt', title: t('logExport.column.finishedAt'), render: (_, r) => formatDate(r.finishedAt) || '-' },
    {
      key: 'actions',
      title: t('common.actions'),
      fixed: 'right',
      render: (_, r) => (
        <Space>
          {r.status === 'completed' ? (
            <Button size="small" type="link" onClick={() => void downloadExport(tier, r)} data-testid={`export-download-${r.id}`}>{t('logExport.download')}</Button>
          ) : null}
          {r.status === 'failed' ? (
            <Button size="small" type="link" onClick={() => retry.mutate([r.id], { onSuccess: () => toast.success(t('logExport.retried')) })}>{t('logExport.retry')}</Button>
          ) : null}
          {r.status === 'deleting' || r.status === 'deleted' ? null : (
            <Popconfirm title={t('logExport.removeConfirm')} okText={t('common.confirm')} cancelText={t('common.cancel')} onConfirm={() => remove.mutate([r.id], { onSuccess: () => toast.success(t('logExport.removed')) })}>
              <Button size="small" danger type="link">{t('common.remove')}</Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Card title={t('logExport.apply')}>
        <ApplyForm tier={tier} />
      </Card>
      <Card title={t('menu.logExport')}>
        <DataTable<ExportItem>
          queryKey={exportKeys.list(tier)}
          fetch={(query) => fetchExports(tier, query)}
          rowKey="id"
          columns={columns}
          refetchInterval={busy}
          filters={<SelectFilter name="type" placeholder={t('logExport.column.type')} options={EXPORT_TYPES.map((v) => ({ value: v, label: t(TYPE_KEYS[v]) }))} />}
        />
      </Card>
    </Space>
  );
}
