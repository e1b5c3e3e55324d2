import { SITE_STATUS_NAMES } from './site-status';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const COLORS = ['default', 'green', 'red', 'orange'] as const;

/** A site's status (spec §4: paused, normal, locked, expired, by index). */
export function SiteStatusTag({ status }: { status: number }) {
  const { t } = useTranslation();
  const name = SITE_STATUS_NAMES[status];
  if (!name) return null;
  return <Tag color={COLORS[status]}>{t(`sites.${name}`)}</Tag>;
}
