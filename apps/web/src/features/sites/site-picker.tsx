import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { SELECTED_SITE_KEY as STORED } from '../../app/stored-selections';
import { siteCalls, siteKeys } from './queries';

/**
 * The site a user-menu screen works on, kept in the URL (`?site=`) and remembered locally so the next screen
 * opens on it; without one, the remembered site if it is still the user's, else the first.
 */
export function useSitePicker() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const sites = useQuery({ queryKey: siteKeys.metaSites, queryFn: siteCalls.metaSites });
  const siteId = Number(search.get('site')) || undefined;
  useEffect(() => {
    if (siteId) localStorage.setItem(STORED, String(siteId));
    if (siteId || !sites.data?.length) return;
    const stored = Number(localStorage.getItem(STORED));
    const pick = sites.data.find((s) => s.id === stored) ?? sites.data[0];
    setSearch({ site: String(pick.id) }, { replace: true });
  }, [siteId, sites.data, setSearch]);
  const picker = (
    <Select
      showSearch
      optionFilterProp="label"
      style={{ minWidth: 240 }}
      placeholder={t('sites.pickSite')}
      value={siteId}
      loading={sites.isLoading}
      options={(sites.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
      onChange={(id: number) => setSearch({ site: String(id) })}
      data-testid="site-picker"
    />
  );
  return { siteId, picker, empty: sites.isSuccess && sites.data.length === 0 };
}
