import { useTranslation } from 'react-i18next';
import { CertificatesTab } from './certificates-tab';
import { SiteScreen } from './site-screen';

/** The user menu's certificates screen: the chosen site's certificates, the same list as its settings tab. */
export default function CertificatesPage() {
  const { t } = useTranslation();
  return <SiteScreen title={t('menu.certificates')}>{(siteId) => <CertificatesTab siteId={siteId} />}</SiteScreen>;
}
