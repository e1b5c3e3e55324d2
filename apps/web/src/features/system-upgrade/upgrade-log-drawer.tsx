import { Descriptions, Drawer, Empty, Progress, Spin, Timeline } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../lib/dates';
import { useUpgradeLog, type UpgradeNode } from './queries';
import { UpgradeStateTag } from './upgrade-state-tag';

/** Each step the node's agent reported for its last upgrade, newest last. */
export function UpgradeLogDrawer({ node, onClose }: { node: UpgradeNode; onClose: () => void }) {
  const { t } = useTranslation();
  const { data, isLoading } = useUpgradeLog(node.id);
  const log = data?.data;
  return (
    <Drawer open width={560} title={t('systemUpgrade.logTitle', { name: node.name })} onClose={onClose}>
      {isLoading || !log ? (
        <Spin />
      ) : (
        <>
          <Descriptions column={1} size="small" style={{ marginBottom: 16 }}>
            <Descriptions.Item label={t('systemUpgrade.column.upgradeState')}>
              <UpgradeStateTag state={log.state} testId={`upgrade-log-state-${node.id}`} />
            </Descriptions.Item>
            <Descriptions.Item label={t('systemUpgrade.fromTo')}>{log.toVersion ? `${log.fromVersion ?? '-'} → ${log.toVersion}` : '-'}</Descriptions.Item>
            <Descriptions.Item label={t('systemUpgrade.column.progress')}>
              <Progress percent={log.progress} size="small" status={log.state === 'failed' ? 'exception' : undefined} />
            </Descriptions.Item>
          </Descriptions>
          {log.lines.length ? (
            <Timeline
              data-testid="upgrade-log"
              items={log.lines.map((l) => ({ children: <span>{formatDate(l.at)} — {l.message}</span> }))}
            />
          ) : (
            <Empty description={t('systemUpgrade.noLog')} />
          )}
        </>
      )}
    </Drawer>
  );
}
