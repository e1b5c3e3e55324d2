import { Skeleton, Space } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useCan } from '../../app/use-self';
import { CurrentAnnouncements } from '../announcements/current-announcements';
import { Usage } from './usage';

/**
 * The analytics tabs arrive after the rest of the dashboard (they bring the contract's statistics calls and charts):
 * mounted once the dashboard is shown, so that the navigation to it does not wait for them.
 */
const DashboardTabs = lazy(() => import('./dashboard-tabs'));

/** The user's dashboard (spec §2): its tabs for an account that may see statistics, and resource usage. */
export function UserDashboard() {
  const can = useCan();
  const [shown, setShown] = useState(false);
  useEffect(() => setShown(true), []);
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="user-dashboard">
      <CurrentAnnouncements />
      {can('statistics.view') ? (
        <Suspense fallback={<Skeleton active />}>{shown ? <DashboardTabs /> : <Skeleton active />}</Suspense>
      ) : (
        <Usage />
      )}
    </Space>
  );
}
