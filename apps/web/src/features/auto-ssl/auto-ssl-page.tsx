import { AUTO_CERT_STATUSES, type AutoCertificate } from '@edgekeep/contract/schemas/auto-certificates';
import { Button, Card, Popconfirm, Progress, Space, Tag, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { useCan } from '../../app/use-self';
import { DataTable } from '../../components/data-table';
import { SelectFilter, TextFilter } from '../../components/filter-bar';
import { formatDate } from '../../lib/dates';
import { AutoSslFailure, AutoSslStatusTag } from './auto-ssl-status';
import { autoSslKeys, fetchAutoCertificates, inProgress, PROGRESS_POLL_MS, useReapply } from './queries';

/** autoSSLManagement: every automatic certificate of the client's domains, with reapply single or batch. */
export default function AutoSslPage() {
  const { t } = useTranslation();
  const editable = useCan()('autoSSL.edit');
  const reapply = useReapply();
  const run = (ids: number[], done?: () => void) =>
    reapply.mutate(ids, {
      onSuccess: () => {
        toast.success(t('autoSsl.reapplied'));
        done?.();
      },
    });
  const columns: TableColumnsType<AutoCertificate> = [
    { key: 'domainName', dataIndex: 'domainName', title: t('autoSsl.domain'), sorter: true },
    { key: 'siteName', dataIndex: 'siteName', title: t('autoSsl.site') },
    { key: 'status', title: t('autoSsl.state'), sorter: true, render: (_, c) => <AutoSslStatusTag status={c.status} error={c.error} /> },
    { key: 'challenge', title: t('autoSsl.validation'), render: (_, c) => <Tag>{t(c.challenge === 'dns-01' ? 'autoSsl.dns' : 'autoSsl.http')}</Tag> },
    { key: 'notAfter', title: t('autoSsl.expiry'), sorter: true, render: (_, c) => (c.notAfter ? formatDate(c.notAfter) : '-') },
    { key: 'renewAt', title: t('autoSsl.nextRenewal'), sorter: true, render: (_, c) => (c.renewAt ? formatDate(c.renewAt) : '-') },
    {
      key: 'budget',
      title: t('autoSsl.budget'),
      render: (_, c) => (
        <Space direction="vertical" size={0}>
          <span>{t('autoSsl.budgetOf', { used: c.budget.used, limit: c.budget.limit, domain: c.budget.registeredDomain })}</span>
          <Progress percent={Math.round((100 * c.budget.used) / c.budget.limit)} size="small" showInfo={false} status={c.budget.used >= c.budget.limit ? 'exception' : 'normal'} />
        </Space>
      ),
    },
    {
      key: 'actions',
      title: t('autoSsl.actions'),
      render: (_, c) =>
        editable ? (
          <Button size="small" disabled={c.status === 'processing'} onClick={() => run([c.id])}>
            {t('autoSsl.reapply')}
          </Button>
        ) : null,
    },
  ];
  const filters = (
    <>
      <TextFilter name="keyword" placeholder={t('autoSsl.search')} />
      <SelectFilter name="status" placeholder={t('autoSsl.state')} options={AUTO_CERT_STATUSES.map((s) => ({ value: s, label: t(`autoSsl.status.${s}`) }))} />
    </>
  );
  return (
    <Card title={t('menu.autoSSLManagement')}>
      <DataTable<AutoCertificate>
        queryKey={autoSslKeys.list}
        fetch={fetchAutoCertificates}
        columns={columns}
        rowKey="id"
        filters={filters}
        refetchInterval={(page) => (inProgress(page?.data) ? PROGRESS_POLL_MS : false)}
        expandable={{ rowExpandable: (c) => !!c.error, expandedRowRender: (c) => <AutoSslFailure error={c.error} hint={c.hint} /> }}
        batch={
          editable
            ? (selected, clear) => (
                <Popconfirm title={t('autoSsl.reapplyBatchConfirm', { n: selected.length })} disabled={!selected.length} onConfirm={() => run(selected.map(Number), clear)}>
                  <Button disabled={!selected.length}>{t('autoSsl.reapplyBatch')}</Button>
                </Popconfirm>
              )
            : undefined
        }
      />
    </Card>
  );
}
