import { Button, Descriptions, Modal, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTier } from '../../app/use-tier';
import { DataTable } from '../../components/data-table';
import { DateRangeFilter, SelectFilter, TextFilter } from '../../components/filter-bar';
import { formatDate } from '../../lib/dates';
import { auditKeys, fetchAuditLogs, type AuditItem } from './queries';

const METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;
const METHOD_COLORS: Record<string, string> = { POST: 'green', PUT: 'blue', PATCH: 'cyan', DELETE: 'red' };

/** A logged body as indented JSON when it is JSON. */
const pretty = (body: string | null) => {
  if (!body) return '';
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
};

/** The operation log (POST auditLogs): every write call of the account and the accounts below it, with each call's detail. */
export function AuditLogTable() {
  const { t } = useTranslation();
  const tier = useTier();
  const [detail, setDetail] = useState<AuditItem>();
  const columns: TableColumnsType<AuditItem> = [
    { key: 'createdAt', title: t('audit.createdAt'), render: (_, r) => formatDate(r.createdAt) },
    { key: 'accountName', title: t('audit.accountName'), render: (_, r) => r.accountName ?? '---' },
    { key: 'proxyName', title: t('audit.proxyName'), render: (_, r) => r.proxyName ?? '' },
    { key: 'method', title: t('audit.method'), render: (_, r) => <Tag color={METHOD_COLORS[r.method]}>{r.method}</Tag> },
    { key: 'url', title: t('audit.url'), dataIndex: 'url' },
    { key: 'status', title: t('audit.status'), dataIndex: 'status' },
    { key: 'code', title: t('audit.code'), render: (_, r) => r.code ?? '' },
    { key: 'ip', title: t('audit.ip'), dataIndex: 'ip' },
    { key: 'reqID', title: t('audit.reqID'), render: (_, r) => <Typography.Text copyable>{r.reqID}</Typography.Text> },
    {
      key: 'actions',
      title: t('common.actions'),
      fixed: 'right',
      render: (_, r) => (
        <Button type="link" size="small" onClick={() => setDetail(r)}>
          {t('common.detail')}
        </Button>
      ),
    },
  ];
  return (
    <>
      <DataTable<AuditItem>
        queryKey={auditKeys.list(tier)}
        fetch={(query) => fetchAuditLogs(tier, query)}
        rowKey="id"
        columns={columns}
        filters={
          <>
            <TextFilter name="accountName" placeholder={t('audit.accountName')} />
            <TextFilter name="proxyName" placeholder={t('audit.proxyName')} />
            <SelectFilter name="method" placeholder={t('audit.method')} options={METHODS.map((m) => ({ value: m, label: m }))} />
            <TextFilter name="url" placeholder={t('audit.url')} />
            <TextFilter name="reqID" placeholder={t('audit.reqID')} />
            <DateRangeFilter from="startTime" to="endTime" />
          </>
        }
      />
      <Modal open={detail !== undefined} title={t('audit.detail')} footer={null} onCancel={() => setDetail(undefined)} width={720}>
        {detail && (
          <Descriptions bordered column={1} size="small" data-testid="audit-detail">
            <Descriptions.Item label={t('audit.createdAt')}>{formatDate(detail.createdAt)}</Descriptions.Item>
            <Descriptions.Item label={t('audit.accountName')}>{detail.accountName ?? '---'}</Descriptions.Item>
            <Descriptions.Item label={t('audit.proxyName')}>{detail.proxyName ?? ''}</Descriptions.Item>
            <Descriptions.Item label={t('audit.method')}>{detail.method}</Descriptions.Item>
            <Descriptions.Item label={t('audit.url')}>{detail.url}</Descriptions.Item>
            <Descriptions.Item label={t('audit.status')}>{detail.status}</Descriptions.Item>
            <Descriptions.Item label={t('audit.code')}>{detail.code ?? ''}</Descriptions.Item>
            <Descriptions.Item label={t('audit.ip')}>{detail.ip}</Descriptions.Item>
            <Descriptions.Item label={t('audit.reqID')}>{detail.reqID}</Descriptions.Item>
            <Descriptions.Item label={t('audit.body')}>
              <pre style={{ margin: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>{pretty(detail.body)}</pre>
            </Descriptions.Item>
          </Descriptions>
        )}
      </Modal>
    </>
  );
}
