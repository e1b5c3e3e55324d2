import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Popconfirm, Space, Tag, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { DataTable } from '../../components/data-table';
import { formatDate } from '../../lib/dates';
import { dnsKeys, fetchDnsTasks, useDnsMutations, type DnsTask } from './queries';

/** The changes the provider has not taken yet (the DNS unprocessed task size), with repair and full recovery. */
export function DnsTasks() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { repair, recovery } = useDnsMutations();
  const done = (answer: { data: { processed: number; remaining: number } }) => {
    toast.success(t('dnsSetting.repaired', answer.data));
    void queryClient.invalidateQueries({ queryKey: dnsKeys.tasks });
  };
  const columns: TableColumnsType<DnsTask> = [
    { key: 'name', dataIndex: 'name', title: t('dnsSetting.name'), sorter: true },
    { key: 'type', dataIndex: 'type', title: t('dnsSetting.recordType'), width: 90 },
    { key: 'action', dataIndex: 'action', title: t('dnsSetting.action'), width: 110, render: (a: DnsTask['action']) => <Tag color={a === 'delete' ? 'red' : 'blue'}>{t(`dnsSetting.actions.${a}`)}</Tag> },
    { key: 'records', dataIndex: 'records', title: t('dnsSetting.records'), render: (r: string[]) => r.join(', ') || '-' },
    { key: 'attempts', dataIndex: 'attempts', title: t('dnsSetting.attempts'), sorter: true, width: 100 },
    { key: 'lastError', dataIndex: 'lastError', title: t('dnsSetting.lastError'), render: (e: string | null) => <Typography.Text type="danger">{e ?? ''}</Typography.Text> },
    { key: 'updatedAt', dataIndex: 'updatedAt', title: t('infra.updatedAt'), sorter: true, render: (v: string) => formatDate(v) },
  ];
  return (
    <Card title={t('dnsSetting.unprocessed')}>
      <DataTable<DnsTask>
        queryKey={dnsKeys.tasks}
        fetch={fetchDnsTasks}
        columns={columns}
        rowKey="id"
        refetchInterval={5000}
        toolbar={
          <Space>
            <Button onClick={() => repair.mutate(undefined, { onSuccess: done })} loading={repair.isPending} data-testid="dns-repair">
              {t('dnsSetting.repair')}
            </Button>
            <Popconfirm title={t('dnsSetting.recoveryConfirm')} onConfirm={() => recovery.mutate(undefined, { onSuccess: done })}>
              <Button loading={recovery.isPending}>{t('dnsSetting.recovery')}</Button>
            </Popconfirm>
          </Space>
        }
      />
    </Card>
  );
}
