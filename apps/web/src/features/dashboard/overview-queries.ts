import { QPS_SERIES } from '@edgekeep/contract/schemas/security';
import { queryClient } from '../../app/query-client';
import { loadSelf, selfQueryKey } from '../../app/use-self';
import { guessTimezone } from '../../lib/dates';
import { qpsFirstQuery } from '../security/use-qps';
import { statisticsInfoQuery, type StatisticsFilter } from '../statistics/queries';

/** The overview's window: the QPS chart's six hours, in the browser's time zone. */
export const overviewScope = () => ({ timeZone: guessTimezone() });
export const overviewInfoFilter = (timeZone: string): StatisticsFilter => ({
  timeInterval: QPS_SERIES.timeInterval,
  reportInterval: QPS_SERIES.reportInterval,
  timeZone,
});

/**
 * Starts what the user dashboard's overview needs while the console is still loading (as the widget dashboards do):
 * the session, then, where the account may read statistics, the cards' and the QPS chart's answers and the chart code,
 * under the very query keys the overview reads.
 */
export async function preloadUserDashboard() {
  const self = await queryClient.fetchQuery({ queryKey: selfQueryKey('user'), queryFn: () => loadSelf('user') });
  if (!self.permissions.includes('statistics.view')) return;
  const scope = overviewScope();
  await Promise.all([
    queryClient.prefetchQuery(statisticsInfoQuery('user', overviewInfoFilter(scope.timeZone))),
    queryClient.prefetchQuery(qpsFirstQuery('user', scope)),
    import('../statistics/echart'),
  ]);
}
