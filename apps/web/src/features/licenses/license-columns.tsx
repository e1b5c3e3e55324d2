import { Tag, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import type { License } from './queries';
import { formatDate } from '../../lib/dates';
import { LIMIT_FIELDS } from './license-form';

/** The columns both license lists share: every term, the client, start and expiry. */
export function useLicenseColumns(): TableColumnsType<License> {
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
    ...LIMIT_FIELDS.map((f) => ({ key: f, title: t(`licenses.${f}`), render: (_: unknown, l: License) => limit(l[f]) })),
    { key: 'portType', title: t('licenses.portType'), render: (_, l) => t(`licenses.layer.${l.portType === '7' ? 'l7' : 'l74'}`) },
    { key: 'nodeMonitorSeconds', dataIndex: 'nodeMonitorSeconds', title: t('licenses.nodeMonitorSeconds') },
    { key: 'startAt', title: t('licenses.startAt'), sorter: true, render: (_, l) => formatDate(l.startAt, 'date') || t('licenses.onIssue') },
    { key: 'expiredAt', title: t('licenses.expiredAt'), sorter: true, render: (_, l) => formatDate(l.expiredAt, 'date') },
    { key: 'createdAt', title: t('licenses.createdAt'), sorter: true, render: (_, l) => formatDate(l.createdAt) },
    { key: 'updatedAt', title: t('licenses.updatedAt'), sorter: true, render: (_, l) => formatDate(l.updatedAt) },
  ];
}
