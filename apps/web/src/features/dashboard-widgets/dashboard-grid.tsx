import { DeleteOutlined, DragOutlined } from '@ant-design/icons';
import { DASHBOARD_COLS, WIDGET_RANGES, type DashboardPage, type Widget } from '@edgekeep/contract/schemas/dashboard';
import { REPORT_INTERVALS } from '@edgekeep/contract/schemas/statistics';
import { Button, Select, Space } from 'antd';
import ReactGridLayout, { WidthProvider, type Layout } from 'react-grid-layout/legacy';
import 'react-grid-layout/css/styles.css';
import { useTranslation } from 'react-i18next';
import { isChart } from './layout-state';
import type { DashboardTier } from './queries';
import { INTERVAL_KEYS } from '../statistics/window-label';
import { RANGE_KEYS } from './widget-labels';
import { WidgetView } from './widget-view';

const Grid = WidthProvider(ReactGridLayout);
void import('../statistics/echart');
const ROW_HEIGHT = 40;
const MARGIN = 12;
/** What a chart widget's card keeps for its title, window note and padding. */
const CHART_CHROME = 96;
/** The strip above each widget while editing: move, range, interval, remove. */
const EDIT_BAR = 28;

type GridProps = {
  tier: DashboardTier;
  page: DashboardPage;
  editing: boolean;
  onPlace: (grid: Layout) => void;
  onRemove: (i: string) => void;
  onOptions: (i: string, options: Widget['options']) => void;
};

function EditBar({ widget, onRemove, onOptions }: { widget: Widget } & Pick<GridProps, 'onRemove' | 'onOptions'>) {
  const { t } = useTranslation();
  return (
    <Space size={4} style={{ height: EDIT_BAR, justifyContent: 'flex-end', width: '100%' }}>
      <Button size="small" icon={<DragOutlined />} className="widget-drag" aria-label={t('dashboardWidgets.move')} />
      <Select
        size="small"
        value={widget.options.range}
        onChange={(range) => onOptions(widget.i, { ...widget.options, range })}
        options={WIDGET_RANGES.map((r) => ({ value: r, label: t(RANGE_KEYS[r]) }))}
        popupMatchSelectWidth={false}
        data-testid="widget-range"
      />
      {isChart(widget.type) ? (
        <Select
          size="small"
          value={widget.options.reportInterval}
          onChange={(reportInterval) => onOptions(widget.i, { ...widget.options, reportInterval })}
          options={REPORT_INTERVALS.map((n) => ({ value: n, label: t(INTERVAL_KEYS[n]) }))}
          popupMatchSelectWidth={false}
          data-testid="widget-interval"
        />
      ) : null}
      <Button size="small" danger icon={<DeleteOutlined />} aria-label={t('dashboardWidgets.removeWidget')} onClick={() => onRemove(widget.i)} />
    </Space>
  );
}

/** The page's widgets on the 12-column grid; while editing they can be dragged, resized, given a range (charts: an interval) and removed. */
export default function DashboardGrid({ tier, page, editing, onPlace, onRemove, onOptions }: GridProps) {
  return (
    <Grid
      cols={DASHBOARD_COLS}
      rowHeight={ROW_HEIGHT}
      margin={[MARGIN, MARGIN]}
      containerPadding={[0, 0]}
      layout={page.widgets.map(({ i, x, y, w, h }) => ({ i, x, y, w, h }))}
      isDraggable={editing}
      isResizable={editing}
      draggableHandle=".widget-drag"
      onLayoutChange={(grid) => editing && onPlace(grid)}
    >
      {page.widgets.map((w) => (
        <div key={w.i} style={{ display: 'flex', flexDirection: 'column' }} data-type={w.type}>
          {editing ? <EditBar widget={w} onRemove={onRemove} onOptions={onOptions} /> : null}
          <div style={{ flex: 1, minHeight: 0 }}>
            <WidgetView tier={tier} widget={w} height={isChart(w.type) ? Math.max(80, w.h * ROW_HEIGHT + (w.h - 1) * MARGIN - CHART_CHROME - (editing ? EDIT_BAR : 0)) : 0} />
          </div>
        </div>
      ))}
    </Grid>
  );
}
