import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../lib/dates';

const COLORS = { active: 'green', inactive: 'red', pending: 'default' } as const;

/** Whether the domain's DNS points at the site's CNAME, as the last check found. */
export function CnameStatusTag({ status, checkedAt }: { status: keyof typeof COLORS; checkedAt: string | null }) {
  const { t } = useTranslation();
  const tag = <Tag color={COLORS[status]}>{t(`domainSettings.cname.${status}`)}</Tag>;
  return checkedAt ? <Tooltip title={t('domainSettings.checkedAt', { at: formatDate(checkedAt) })}>{tag}</Tooltip> : tag;
}
