import { useQuery } from '@tanstack/react-query';
import { Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { DateRangeFilter, SelectFilter, TextFilter } from '../../components/filter-bar';
import { domainCalls, domainKeys } from './queries';

/** The domain list's filters (spec §3 Domain list filters), each kept in the URL. */
export function DomainFilters({ siteId }: { siteId: number }) {
  const { t } = useTranslation();
  const tags = useQuery({ queryKey: domainKeys.tags(siteId), queryFn: () => domainCalls.tags(siteId) });
  return (
    <Space wrap>
      <TextFilter name="keywords" placeholder={t('domains.keyword')} />
      <SelectFilter name="tags" placeholder={t('domainSettings.tagFilter')} options={(tags.data ?? []).map((tag) => ({ value: tag, label: tag }))} />
      <SelectFilter
        name="cnameStatuses"
        placeholder={t('domainSettings.cnameStatus')}
        options={(['active', 'inactive', 'pending'] as const).map((s) => ({ value: s, label: t(`domainSettings.cname.${s}`) }))}
      />
      <SelectFilter
        name="forceSSL"
        placeholder={t('domains.forceSSL')}
        options={[
          { value: 'true', label: t('domainSettings.on') },
          { value: 'false', label: t('domainSettings.off') },
        ]}
      />
      <SelectFilter
        name="certStatus"
        placeholder={t('domainSettings.certStatus')}
        options={(['valid', 'expired', 'none'] as const).map((s) => ({ value: s, label: t(`domainSettings.cert.${s}`) }))}
      />
      <DateRangeFilter from="createdStart" to="createdEnd" />
    </Space>
  );
}
