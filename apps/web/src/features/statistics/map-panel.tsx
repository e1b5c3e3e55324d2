import { Col, Row, Table, type TableColumnsType } from 'antd';
import type { ChartOption } from './echart';
import { Chart, Panel } from './panel';
import type { StatisticsWindow } from './window-label';

type Props<R> = {
  title: string;
  window: StatisticsWindow | undefined;
  testId: string;
  map: 'world' | 'china';
  option: ChartOption;
  rows: R[] | undefined;
  columns: TableColumnsType<R>;
};

/** A map of the window's numbers with its places ranked beside it, ten to a page. */
export function MapPanel<R extends { key: string }>({ title, window, testId, map, option, rows, columns }: Props<R>) {
  return (
    <Panel title={title} window={window} testId={testId}>
      <Row gutter={12}>
        <Col xs={24} xl={16}>
          <Chart map={map} option={option} height={380} />
        </Col>
        <Col xs={24} xl={8}>
          <Table<R> size="small" rowKey="key" loading={!rows} dataSource={rows ?? []} pagination={{ pageSize: 10, size: 'small' }} columns={columns} />
        </Col>
      </Row>
    </Panel>
  );
}
