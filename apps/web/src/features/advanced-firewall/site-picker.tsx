import { useQuery } from '@tanstack/react-query';
import { Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { sitesApi } from '../../api/sites';

/** The site a per-site firewall screen works on, kept in the URL (`site`); the first site when none is chosen. */
export function useSiteChoice() {
  const [search, setSearch] = useSearchParams();
  const sites = useQuery({ queryKey: ['metaSites'], queryFn: () => sitesApi.metaSites() });
  const chosen = Number(search.get('site')) || sites.data?.[0]?.id;
  const choose = (id: number) => setSearch(new URLSearchParams({ site: String(id) }), { replace: true });
  return { sites: sites.data, loading: sites.isLoading, siteId: chosen, choose };
}

export function SitePicker({ choice }: { choice: ReturnType<typeof useSiteChoice> }) {
  const { t } = useTranslation();
  return (
    <Space>
      <Typography.Text>{t('advancedFirewall.site')}</Typography.Text>
      <Select
        style={{ minWidth: 240 }}
        loading={choice.loading}
        value={choice.siteId}
        placeholder={t('advancedFirewall.chooseSite')}
        onChange={choice.choose}
        showSearch
        optionFilterProp="label"
        options={(choice.sites ?? []).map((s) => ({ value: s.id, label: s.name }))}
        data-testid="site-picker"
      />
    </Space>
  );
}
