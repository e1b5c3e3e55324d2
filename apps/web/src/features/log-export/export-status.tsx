import { Progress, Space, Tag } from 'antd';
import type { ParseKeys } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { ExportItem, ExportStatus } from './queries';

const STATUS: Record<ExportStatus, { label: ParseKeys; color: string }> = {
  processing: { label: 'logExport.status.processing', color: 'processing' },
  completed: { label: 'logExport.status.completed', color: 'success' },
  deleting: { label: 'logExport.status.deleting', color: 'warning' },
  deleted: { label: 'logExport.status.deleted', color: 'default' },
  failed: { label: 'logExport.status.failed', color: 'error' },
};

/** Spec §4 Export file states; a processing export shows how far it got. */
export function ExportStatusTag({ item }: { item: ExportItem }) {
  const { t } = useTranslation();
  const s = STATUS[item.status];
  return (
    <Space direction="vertical" size={2}>
      <Tag color={s.color} title={item.error ?? undefined} data-testid={`export-status-${item.id}`}>{t(s.label)}</Tag>
      {item.status === 'processing' ? <Progress percent={item.progress} size="small" style={{ width: 140 }} /> : null}
    </Space>
  );
}
