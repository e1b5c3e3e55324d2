import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TrafficState } from './queries';

const COLORS: Record<TrafficState, string> = { normal: 'green', warning: 'orange', limited: 'red' };
const LABELS = { normal: 'traffic.stateNormal', warning: 'traffic.stateWarning', limited: 'traffic.stateLimited' } as const;

/** Spec §4 traffic state; `stopped` when the edge refuses the site for it. */
export function TrafficStateTag({ state, stopped }: { state: TrafficState; stopped: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      <Tag color={COLORS[state]}>{t(LABELS[state])}</Tag>
      {stopped ? <Tag color="red">{t('traffic.stopped')}</Tag> : null}
    </>
  );
}
