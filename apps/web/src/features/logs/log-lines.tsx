import { Button, Descriptions, Form, Space, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/data-table';
import { formatDate, formatRange } from '../../lib/dates';
import { countryName } from '../../lib/country-name';
import { formatBytes } from '../../lib/units';
import type { AnalyticsTier } from '../statistics/queries';
import { initialLogValues, LogFilterFields, toLogFilter, type LogFilterValues } from './log-filter-fields';
import { fetchLogLines, logKeys, type AccessLogItem, type LogKind, type WafLogItem } from './queries';

type Line = AccessLogItem & Partial<Pick<WafLogItem, 'cause' | 'module' | 'rule' | 'action'>>;

const statusColor = (s: number) => (s >= 500 ? 'red' : s >= 400 ? 'orange' : s >= 300 ? 'blue' : 'green');
const dash = (v: string | number | null | undefined) => (v === '' || v === null || v === undefined ? '-' : v);

/** What a line holds beyond its columns. */
function LineDetail({ line }: { line: Line }) {
  const { t } = useTranslation();
  return (
    // The table is as wide as its widest row: the details wrap within a width of their own.
    <Descriptions size="small" column={{ xs: 1, xl: 2 }} style={{ maxWidth: 960, wordBreak: 'break-all' }} data-testid="log-detail">
      <Descriptions.Item label={t('logs.field.userAgent')}>{dash(line.userAgent)}</Descriptions.Item>
      <Descriptions.Item label={t('logs.field.referer')}>{dash(line.referer)}</Descriptions.Item>
      <Descriptions.Item label={t('logs.field.requestId')}><Typography.Text copyable={!!line.requestId}>{dash(line.requestId)}</Typography.Text></Descriptions.Item>
      <Descriptions.Item label={t('logs.field.node')}>{line.nodeID}</Descriptions.Item>
      <Descriptions.Item label={t('logs.field.isp')}>{dash(line.isp)}</Descriptions.Item>
      <Descriptions.Item label={t('logs.field.location')}>{[line.country && countryName(line.country), line.region, line.city].filter(Boolean).join(' / ') || '-'}</Descriptions.Item>
      <Descriptions.Item label={t('logs.field.asn')}>{dash(line.asn)}</Descriptions.Item>
      <Descriptions.Item label={t('logs.field.protocol')}>{`${line.protocol} ${line.httpVersion}`}</Descriptions.Item>
      <Descriptions.Item label={t('logs.field.bytesReceived')}>{formatBytes(line.bytesReceived)}</Descriptions.Item>
      <Descriptions.Item label={t('logs.field.upstreamTime')}>{line.upstreamTime === null ? '-' : `${line.upstreamTime} s`}</Descriptions.Item>
    </Descriptions>
  );
}

/** Access or WAF lines of a window, newest first, each opening to its details; WAF lines say what refused them. */
export function LogLines({ tier, kind }: { tier: AnalyticsTier; kind: LogKind }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<LogFilterValues>();
  const [filter, setFilter] = useState(() => toLogFilter(initialLogValues()));
  const columns: TableColumnsType<Line> = [
    { key: 'time', title: t('logs.field.time'), render: (_, r) => formatDate(r.time) },
    { key: 'domain', title: t('logs.field.domain'), dataIndex: 'domain' },
    { key: 'remoteIP', title: t('logs.field.remoteIP'), dataIndex: 'remoteIP' },
    { key: 'country', title: t('logs.field.country'), render: (_, r) => (r.country ? countryName(r.country) : '-') },
    { key: 'method', title: t('logs.field.method'), dataIndex: 'method' },
    { key: 'uri', title: t('logs.field.uri'), render: (_, r) => <Typography.Text ellipsis={{ tooltip: r.uri }} style={{ maxWidth: 280 }}>{r.uri}</Typography.Text> },
    { key: 'status', title: t('logs.field.status'), render: (_, r) => <Tag color={statusColor(r.status)}>{r.status}</Tag> },
    ...(kind === 'waf'
      ? ([
          { key: 'cause', title: t('logs.field.cause'), render: (_, r) => dash(r.cause) },
          { key: 'module', title: t('logs.field.module'), render: (_, r) => dash(r.module) },
          { key: 'rule', title: t('logs.field.rule'), render: (_, r) => dash(r.rule) },
          { key: 'action', title: t('logs.field.action'), render: (_, r) => (r.action ? <Tag color="red">{r.action}</Tag> : '-') },
        ] satisfies TableColumnsType<Line>)
      : ([
          { key: 'bytesSent', title: t('logs.field.bytesSent'), render: (_, r) => formatBytes(r.bytesSent) },
          { key: 'cacheStatus', title: t('logs.field.cacheStatus'), render: (_, r) => dash(r.cacheStatus) },
          { key: 'requestTime', title: t('logs.field.requestTime'), render: (_, r) => `${r.requestTime} s` },
        ] satisfies TableColumnsType<Line>)),
  ];
  const search = (
    <Form<LogFilterValues> form={form} layout="inline" initialValues={initialLogValues()} onFinish={(v) => setFilter(toLogFilter(v))} style={{ rowGap: 8 }}>
      <LogFilterFields tier={tier} />
      <Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" data-testid={`log-search-${kind}`}>{t('logs.search')}</Button>
          <Button onClick={() => { form.resetFields(); form.setFieldsValue(initialLogValues()); form.submit(); }}>{t('logs.reset')}</Button>
        </Space>
      </Form.Item>
    </Form>
  );
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid={`log-lines-${kind}`}>
      {search}
      <Typography.Text type="secondary">{t('logs.window', { range: formatRange({ start: filter.startTime, end: filter.endTime }) })}</Typography.Text>
      <DataTable<Line>
        scope={kind}
        queryKey={logKeys.lines(tier, kind, filter)}
        fetch={(query) => fetchLogLines({ tier, kind, filter, query }) as Promise<{ data: Line[]; total: number }>}
        rowKey={(r) => `${r.time}|${r.requestId}|${r.remoteIP}|${r.uri}`}
        columns={columns}
        expandable={{ expandedRowRender: (line) => <LineDetail line={line} /> }}
      />
    </Space>
  );
}
