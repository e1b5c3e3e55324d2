import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { License } from './queries';
import type { Column } from '../../components/data-table';
import { formatDate } from '../../lib/dates';
import { LIMIT_FIELDS } from './license-form';

/** The columns both license lists share: the client, days, start and expiry in the table; limits and the rest in the row's detail. */
export function useLicenseColumns(): Column<License>[] {
  const { t } = useTranslation();
  const limit = (n: number) => (n === 0 ? <Tag color="green">{t('licenses.unlimited')}</Tag> : n);
  return [
    { key: 'id', dataIndex: 'id', title: 'ID', sorter: true },
    { key: 'name', dataIndex: 'name', title: t('licenses.name'), sorter: true },
    {
      key: 'client',
      title: t('licenses.client'),
      render: (_, l) => l.clientName ?? <Typography.Text type="secondary">{t('licenses.notIssued')}</Typography.Text>,
    },
    { key: 'days', dataIndex: 'days', title: t('licenses.days'), sorter: true },
    ...LIMIT_FIELDS.map((f) => ({ key: f, detail: true, title: t(`licenses.${f}`), render: (_: unknown, l: License) => limit(l[f]) })),
    { key: 'portType', detail: true, title: t('licenses.portType'), render: (_, l) => t(`licenses.layer.${l.portType === '7' ? 'l7' : 'l74'}`) },
    { key: 'nodeMonitorSeconds', detail: true, dataIndex: 'nodeMonitorSeconds', title: t('licenses.nodeMonitorSeconds') },
    { key: 'startAt', title: t('licenses.startAt'), sorter: true, render: (_, l) => formatDate(l.startAt, 'date') || t('licenses.onIssue') },
    { key: 'expiredAt', title: t('licenses.expiredAt'), sorter: true, render: (_, l) => formatDate(l.expiredAt, 'date') },
    { key: 'createdAt', detail: true, title: t('licenses.createdAt'), sorter: true, render: (_, l) => formatDate(l.createdAt) },
    { key: 'updatedAt', detail: true, title: t('licenses.updatedAt'), sorter: true, render: (_, l) => formatDate(l.updatedAt) },
  ];
}
