import { NotificationOutlined } from '@ant-design/icons';
import { Card, Collapse, Pagination, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../lib/dates';
import { useCurrentAnnouncements } from './queries';

const PAGE_SIZE = 5;

/** The user dashboard's announcements: those of the user's client whose window holds now; nothing when none. */
export function CurrentAnnouncements() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const current = useCurrentAnnouncements(page, PAGE_SIZE);
  const list = current.data;
  if (!list?.total) return null;
  return (
    <Card title={<Space><NotificationOutlined />{t('announcement.current')}</Space>} size="small" data-testid="current-announcements">
      <Collapse
        size="small"
        defaultActiveKey={list.data[0] ? [list.data[0].id] : []}
        items={list.data.map((a, i) => ({
          key: a.id,
          label: `${(page - 1) * PAGE_SIZE + i + 1}. ${a.title}`,
          extra: <Typography.Text type="secondary">{`${formatDate(a.startTime, 'minute')} – ${formatDate(a.endTime, 'minute')}`}</Typography.Text>,
          children: <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{a.content || '---'}</Typography.Paragraph>,
        }))}
      />
      {list.total > PAGE_SIZE ? <Pagination size="small" style={{ marginTop: 8 }} current={page} pageSize={PAGE_SIZE} total={list.total} onChange={setPage} /> : null}
    </Card>
  );
}
