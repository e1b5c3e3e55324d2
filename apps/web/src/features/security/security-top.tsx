import type { securityItem } from '@edgekeep/contract/schemas/security';
import { Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { formatBytes } from '../../lib/units';
import { Panel } from '../statistics/panel';
import { numeric } from '../statistics/top-tables';
import type { StatisticsWindow } from '../statistics/window-label';
import { KIND_LABELS, keyLabel, TOP_TITLES } from './labels';

type Item = z.output<typeof securityItem>;
export type SecurityTop = { type: number; items: Item[]; total: number };

/** One top of a call (`group.type` in TOP_TITLES): rank, value, requests, their bytes and share. */
export function SecurityTopTable({ id, top, window, loading }: { id: string; top: SecurityTop | undefined; window: StatisticsWindow | undefined; loading: boolean }) {
  const { t } = useTranslation();
  const { title, kind } = TOP_TITLES[id];
  return (
    <Panel title={t(title)} window={window} testId={`security-top-${id.replace('.', '-')}`}>
      <Table<Item>
        size="small"
        rowKey="key"
        loading={loading}
        dataSource={top?.items ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        columns={[
          { key: 'rank', title: '#', width: 40, render: (_, __, i) => i + 1 },
          { key: 'key', title: t(KIND_LABELS[kind]), render: (_, r) => <Typography.Text ellipsis={{ tooltip: true }} style={{ maxWidth: 220 }}>{kind === 'rule' ? r.label || '-' : keyLabel(kind, r.key, t)}</Typography.Text> },
          { key: 'count', title: t('security.column.requests'), ...numeric, render: (_, r) => r.count.toLocaleString('en-US') },
          { key: 'traffic', title: t('security.column.traffic'), ...numeric, render: (_, r) => formatBytes(r.traffic) },
          { key: 'share', title: t('security.column.share'), ...numeric, render: (_, r) => `${r.share}%` },
        ]}
      />
    </Panel>
  );
}
