import type { UpgradeState } from '@edgekeep/contract/schemas/node-upgrades';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const COLORS: Record<UpgradeState, string> = {
  notUpdated: 'default',
  updating: 'processing',
  failed: 'error',
  complete: 'success',
};

/** Spec §4 upgrade states: not updated, updating, update failed, update complete. */
export function UpgradeStateTag({ state, testId }: { state: UpgradeState; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={COLORS[state]} data-testid={testId}>
      {t(`systemUpgrade.state.${state}`)}
    </Tag>
  );
}
