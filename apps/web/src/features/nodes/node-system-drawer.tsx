import { Descriptions, Drawer, Empty, Progress, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../lib/dates';
import { formatBytes } from '../../lib/units';
import { DiskFullTag } from './node-status-tag';
import { useNodeSystem, type Node } from './queries';

type Usage = { totalBytes: number; usedBytes: number } | null;

/** What the node last reported about its CPU, memory, disk and network, polled every 2000 ms. */
export function NodeSystemDrawer({ node, onClose }: { node: Node; onClose: () => void }) {
  const { t } = useTranslation();
  const system = useNodeSystem(node.id);
  const s = system.data;
  const usage = (u: Usage) =>
    u ? (
      <>
        <Progress percent={u.totalBytes ? Math.round((u.usedBytes / u.totalBytes) * 100) : 0} size="small" />
        {formatBytes(u.usedBytes)} / {formatBytes(u.totalBytes)}
      </>
    ) : (
      '-'
    );
  const uptime = (sec: number) =>
    t('nodes.uptimeDays', { days: Math.floor(sec / 86_400), hours: Math.floor((sec % 86_400) / 3600), minutes: Math.floor((sec % 3600) / 60) });
  return (
    <Drawer open width={520} title={t('nodes.systemTitle', { name: node.name })} onClose={onClose}>
      {!s ? <Spin /> : null}
      {s && !s.reportedAt ? <Empty description={t('nodes.noReport')} /> : null}
      {s?.reportedAt ? (
        <Descriptions column={1} bordered size="small" data-testid="node-system">
          <Descriptions.Item label={t('nodes.reportedAt')}>{formatDate(s.reportedAt)}</Descriptions.Item>
          <Descriptions.Item label={t('nodes.cpu')}>{s.cpuPercent === null ? '-' : <Progress percent={Math.round(s.cpuPercent)} size="small" />}</Descriptions.Item>
          <Descriptions.Item label={t('nodes.memory')}>{usage(s.memory)}</Descriptions.Item>
          <Descriptions.Item label={t('nodes.disk')}>
            {usage(s.disk)}
            {s.diskFull ? <DiskFullTag nodeId={node.id} diskFull={s.diskFull} /> : null}
          </Descriptions.Item>
          <Descriptions.Item label={t('nodes.network')}>
            {s.network ? `${t('nodes.received')} ${formatBytes(s.network.rxBytes)} · ${t('nodes.sent')} ${formatBytes(s.network.txBytes)}` : '-'}
          </Descriptions.Item>
          <Descriptions.Item label={t('nodes.loadAverage')}>{s.loadAverage.length ? s.loadAverage.map((n) => n.toFixed(2)).join(' / ') : '-'}</Descriptions.Item>
          <Descriptions.Item label={t('nodes.uptime')}>{s.uptimeSeconds === null ? '-' : uptime(s.uptimeSeconds)}</Descriptions.Item>
        </Descriptions>
      ) : null}
    </Drawer>
  );
}
