import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
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
  if (!node.applyError) return tag;
  return <Tooltip title={`${t('nodes.applyError')}: ${node.applyError}`}>{tag}</Tooltip>;
}

export const NODE_STATUS_NAMES = Object.keys(COLORS) as NodeStatus[];
