import { QPS_SERIES } from '@edgekeep/contract/schemas/security';
import { Space, Tabs } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { guessTimezone } from '../../lib/dates';
import { CurrentAnnouncements } from '../announcements/current-announcements';
import { DomainRankCard } from '../domain-ranks/domain-rank-card';
import { QpsChart } from '../security/qps-chart';
import { initialSecurityFilter } from '../security/queries';
import { useQps } from '../security/use-qps';
import { WafPanel } from '../security/waf-panel';
import { useStatisticsInfo } from '../statistics/queries';
import { ResourceCards } from '../traffic/resource-cards';
import { BlacklistTab } from './blacklist-tab';
import { OverviewCards } from './overview-cards';

/** The user's dashboard (spec §2): overview, blacklist and WAF analysis tabs over the last six hours, and resource usage. */
export function UserDashboard() {
  const { t } = useTranslation();
  const [filter] = useState(initialSecurityFilter);
  const [tab, setTab] = useState('overview');
  const scope = useMemo(() => ({ timeZone: guessTimezone() }), []);
  const info = useStatisticsInfo('user', { timeInterval: QPS_SERIES.timeInterval, reportInterval: QPS_SERIES.reportInterval, timeZone: scope.timeZone });
  const qps = useQps('user', scope);
  const infoData = info.data?.data;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="user-dashboard">
      <CurrentAnnouncements />
      <Tabs
        activeKey={tab}
        onChange={setTab}
        destroyOnHidden
        items={[
          {
            key: 'overview',
            label: t('dashboardTabs.overview'),
            children: (
              <Space direction="vertical" size="middle" style={{ width: '100%' }}>
                <OverviewCards info={infoData} />
                <QpsChart points={qps.points} window={qps.window} />
                <ResourceCards />
                <DomainRankCard />
              </Space>
            ),
          },
          { key: 'blacklist', label: t('dashboardTabs.blacklist'), children: <BlacklistTab info={infoData} filter={filter} /> },
          { key: 'waf', label: t('dashboardTabs.waf'), children: <WafPanel tier="user" filter={filter} /> },
        ]}
      />
    </Space>
  );
}
