import { Skeleton, Space } from 'antd';
import { lazy, Suspense } from 'react';
import { useCan } from '../../app/use-self';
import { CurrentAnnouncements } from '../announcements/current-announcements';
import { Usage } from './usage';

/**
 * The analytics tabs bring the contract's statistics calls and charts in a chunk of their own; a console opened on
 * the dashboard starts loading it, and the overview's answers, with its entry (app/preload.ts).
 */
const DashboardTabs = lazy(() => import('./dashboard-tabs'));

/** The user's dashboard (spec §2): its tabs for an account that may see statistics, and resource usage. */
export function UserDashboard() {
  const can = useCan();
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="user-dashboard">
      <CurrentAnnouncements />
      {can('statistics.view') ? (
        <Suspense fallback={<Skeleton active />}>
          <DashboardTabs />
        </Suspense>
      ) : (
        <Usage />
      )}
    </Space>
  );
}
