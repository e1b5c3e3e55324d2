import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../lib/units';
import type { Node, NodeStatus } from './queries';

const COLORS: Record<NodeStatus, string> = {
  paused: 'default',
  unknown: 'warning',
  normal: 'success',
  error: 'error',
  offline: 'volcano',
  reconnect: 'processing',
};

/** The status the agent's reports (or their absence) give the node; an apply failure shows its message. */
export function NodeStatusTag({ node }: { node: Node }) {
  const { t } = useTranslation();
  const tag = (
    <Tag color={COLORS[node.status]} data-testid={`node-status-${node.id}`}>
      {t(`nodeStatus.${node.status}`)}
    </Tag>
  );
  const status = node.applyError ? <Tooltip title={`${t('nodes.applyError')}: ${node.applyError}`}>{tag}</Tooltip> : tag;
  if (!node.diskFull) return status;
  return (
    <>
      {status}
      <DiskFullTag nodeId={node.id} diskFull={node.diskFull} />
    </>
  );
}

/** The node's own files cannot be written (its last report): free and total bytes, and the write refused, on hover. */
export function DiskFullTag({ nodeId, diskFull }: { nodeId: number; diskFull: NonNullable<Node['diskFull']> }) {
  const { t } = useTranslation();
  const title = (
    <>
      {t('nodes.diskFullFree', { free: formatBytes(diskFull.freeBytes), total: formatBytes(diskFull.totalBytes) })}
      {diskFull.writeError ? (
        <>
          <br />
          {t('nodes.diskWriteError', { error: diskFull.writeError })}
        </>
      ) : null}
    </>
  );
  return (
    <Tooltip title={title}>
      <Tag color="error" data-testid={`node-disk-full-${nodeId}`}>
        {t('nodes.diskFull')}
      </Tag>
    </Tooltip>
  );
}

export const NODE_STATUS_NAMES = Object.keys(COLORS) as NodeStatus[];
