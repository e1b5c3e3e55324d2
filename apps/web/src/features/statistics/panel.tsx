import { Card, Skeleton, Space, Typography } from 'antd';
import { lazy, Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChartProps } from './echart';
import { windowLabel, type StatisticsWindow } from './window-label';

const EChart = lazy(() => import('./echart'));
const WorldMap = lazy(() => import('./world-map'));
const ChinaMap = lazy(() => import('./china-map'));

/** ECharts arrives with the first chart, after the screen's cards and tables. */
export const Chart = ({ map, ...props }: ChartProps & { map?: 'world' | 'china' }) => (
  <Suspense fallback={<Skeleton.Node active style={{ width: '100%', height: props.height ?? 260 }} />}>
    {map === 'world' ? <WorldMap {...props} /> : map === 'china' ? <ChinaMap {...props} /> : <EChart {...props} />}
  </Suspense>
);

/** The window and interval an answer covers, in the words of the screens. */
export function WindowNote({ window }: { window: StatisticsWindow | undefined }) {
  const { t } = useTranslation();
  return (
    <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="window-note">
      {windowLabel({ window, t })}
    </Typography.Text>
  );
}

/** A card of the analytics screens: its title, and the window it covers. */
export function Panel({ title, window, children, testId }: { title: string; window: StatisticsWindow | undefined; children: ReactNode; testId?: string }) {
  return (
    <Card
      size="small"
      title={
        <Space direction="vertical" size={0} style={{ padding: '6px 0' }}>
          {title}
          <WindowNote window={window} />
        </Space>
      }
      data-testid={testId}
      style={{ height: '100%' }}
    >
      {children}
    </Card>
  );
}
