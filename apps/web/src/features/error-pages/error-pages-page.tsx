import { useTranslation } from 'react-i18next';
import { ErrorPagesTab } from '../sites/error-pages-tab';
import { SiteScreen } from '../sites/site-screen';

/** The user menu's custom error pages: the chosen site's pages, the same list as its settings tab. */
export default function ErrorPagesPage() {
  const { t } = useTranslation();
  return <SiteScreen title={t('menu.errorPages')}>{(siteId) => <ErrorPagesTab siteId={siteId} />}</SiteScreen>;
}
