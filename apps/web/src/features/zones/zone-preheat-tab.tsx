import { Empty, Form, Input, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import type { preheatResult } from '@edgekeep/contract/schemas/infra';
import type { z } from 'zod';
import { useFormRules } from '../../components/form-rules';
import { formatDate } from '../../lib/dates';
import { useLines } from '../sites/lines';
import { usePreheatResult, useSaveZoneSetting } from './queries';
import { SettingCard, type ZoneTabProps } from './zone-setting-form';

const URL = /^https?:\/\/\S+$/;
const STATUS_COLORS = { queued: 'default', sent: 'processing', done: 'success', failed: 'error' } as const;
type NodeResult = z.output<typeof preheatResult>['nodes'][number];

/** Warm-cache URLs for every node of the zone, and how each node did with the last ones. */
export function ZonePreheatTab({ zoneID, value, canEdit }: ZoneTabProps) {
  const { t } = useTranslation();
  const rules = useFormRules();
  const lines = useLines((line) => URL.test(line));
  const save = useSaveZoneSetting(zoneID, 'preheatCaches');
  const createdAt = value.preheatCaches.createdAt;
  const result = usePreheatResult(zoneID, createdAt);
  const columns: TableColumnsType<NodeResult> = [
    { key: 'node', title: t('zones.node'), dataIndex: 'nodeName' },
    { key: 'status', title: t('sites.status'), render: (_, r) => <Tag color={STATUS_COLORS[r.status]}>{t(`nodeCommand.${r.status}`)}</Tag> },
    { key: 'message', title: t('siteOptions.result'), render: (_, r) => r.message || '-' },
    { key: 'finishedAt', title: t('zones.finishedAt'), render: (_, r) => (r.finishedAt ? formatDate(r.finishedAt) : '-') },
  ];
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <SettingCard<{ urls: string }>
        title={t('zones.preheatCaches')}
        canEdit={canEdit}
        initial={{ urls: value.preheatCaches.urls.join('\n') }}
        saving={save.isPending}
        onSave={(v) => save.mutate({ urls: lines.split(v.urls) })}
      >
        <Form.Item name="urls" extra={t('siteOptions.warmHint')} rules={[rules.required, lines.rule]}>
          <Input.TextArea rows={4} placeholder="https://www.example.com/index.html" data-testid="zone-preheat-urls" />
        </Form.Item>
      </SettingCard>
      {createdAt === null ? (
        <Empty description={t('zones.noPreheat')} />
      ) : (
        <div>
          <Typography.Text type="secondary">{t('zones.preheatAt', { at: formatDate(createdAt) })}</Typography.Text>
          <Table<NodeResult>
            size="small"
            rowKey="nodeID"
            loading={result.isLoading}
            columns={columns}
            dataSource={result.data?.nodes ?? []}
            pagination={false}
            locale={{ emptyText: t('siteOptions.taskStatus.noNodes') }}
            data-testid="zone-preheat-results"
          />
        </div>
      )}
    </Space>
  );
}
