import { Space, Tabs } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { initialSecurityFilter } from '../security/queries';
import { QpsChart } from '../security/qps-chart';
import { useQps } from '../security/use-qps';
import { WafPanel } from '../security/waf-panel';
import { useStatisticsInfo } from '../statistics/queries';
import { BlacklistTab } from './blacklist-tab';
import { OverviewCards } from './overview-cards';
import { overviewInfoFilter, overviewScope } from './overview-queries';
import { Usage } from './usage';

/** The overview, blacklist and WAF analysis tabs over the last six hours (as the QPS chart's first answer). */
export default function DashboardTabs() {
  const { t } = useTranslation();
  const [filter] = useState(initialSecurityFilter);
  const [tab, setTab] = useState('overview');
  const scope = useMemo(overviewScope, []);
  const info = useStatisticsInfo('user', overviewInfoFilter(scope.timeZone));
  const qps = useQps('user', scope);
  const infoData = info.data?.data;
  return (
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
              <Usage />
            </Space>
          ),
        },
        { key: 'blacklist', label: t('dashboardTabs.blacklist'), children: <BlacklistTab info={infoData} filter={filter} /> },
        { key: 'waf', label: t('dashboardTabs.waf'), children: <WafPanel tier="user" filter={filter} /> },
      ]}
    />
  );
}
