import { Button, Card, Popconfirm, Space, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/feedback';
import { DataTable } from '../../components/data-table';
import { TextFilter } from '../../components/filter-bar';
import { useListParams } from '../../components/list-params';
import { formatDate } from '../../lib/dates';
import { RemoveLink } from '../sites/remove-link';
import { AnnouncementFormModal } from './announcement-form-modal';
import { announcementKeys, fetchAnnouncements, useRemoveAnnouncements, type Announcement } from './queries';

/** userManagement/announcementSetting (spec §2): the client's announcements to its users, numbered from 1. */
export default function AnnouncementSettingPage() {
  const { t } = useTranslation();
  const { page, pageSize } = useListParams();
  const [open, setOpen] = useState<{ announcement?: Announcement }>();
  const remove = useRemoveAnnouncements();
  const removed = () => toast.success(t('announcement.removed'));
  const columns: TableColumnsType<Announcement> = [
    { key: 'no', title: t('announcement.no'), width: 70, render: (_v, _r, i) => (page - 1) * pageSize + i + 1 },
    { key: 'title', dataIndex: 'title', title: t('announcement.titleLabel'), sorter: true },
    { key: 'startTime', dataIndex: 'startTime', title: t('announcement.startTime'), sorter: true, render: (v: string) => formatDate(v, 'minute') },
    { key: 'endTime', dataIndex: 'endTime', title: t('announcement.endTime'), sorter: true, render: (v: string) => formatDate(v, 'minute') },
    {
      key: 'actions',
      title: t('common.actions'),
      fixed: 'right',
      render: (_: unknown, a: Announcement) => (
        <Space size="small">
          <Button size="small" type="link" onClick={() => setOpen({ announcement: a })}>
            {t('common.edit')}
          </Button>
          <RemoveLink name={a.title} onConfirm={() => remove.mutate([a.id], { onSuccess: removed })} />
        </Space>
      ),
    },
  ];
  return (
    <Card title={t('menu.announcementSetting')}>
      <DataTable<Announcement>
        queryKey={announcementKeys.client}
        fetch={fetchAnnouncements}
        columns={columns}
        rowKey="id"
        filters={<TextFilter name="title" placeholder={t('announcement.filterTitle')} />}
        toolbar={
          <Button type="primary" onClick={() => setOpen({})}>
            {t('announcement.add')}
          </Button>
        }
        batch={(selected, clear) => (
          <Popconfirm title={t('announcement.confirmRemove', { count: selected.length })} disabled={!selected.length} onConfirm={() => remove.mutate(selected.map(Number), { onSuccess: () => { removed(); clear(); } })}>
            <Button danger disabled={!selected.length}>
              {t('common.removeSelected')}
            </Button>
          </Popconfirm>
        )}
      />
      {open ? <AnnouncementFormModal announcement={open.announcement} onClose={() => setOpen(undefined)} /> : null}
    </Card>
  );
}
