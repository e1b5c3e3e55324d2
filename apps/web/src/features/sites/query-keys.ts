/** react-query keys of the site screens; a change refreshes what starts with them. */
export const keys = {
  sites: ['user-sites'],
  metaSites: ['user-sites', 'meta'],
  productOptions: ['user-sites', 'products'],
  site: (siteId: number) => ['user-site', siteId],
  tags: ['user-site-tags'],
  /** The domains of every site (a copy to another site changes its list). */
  everySiteDomains: ['user-site-domains'],
  domains: (siteId: number) => ['user-site-domains', siteId],
  allDomains: (siteId: number) => ['user-site-domains', siteId, 'all'],
  domainTags: (siteId: number) => ['user-site-domains', siteId, 'tags'],
  domainSettings: (siteId: number, domainId: number) => ['user-site-domains', siteId, 'settings', domainId],
  domainUpstreams: (siteId: number, domainId: number) => ['user-site-domains', siteId, 'upstreams', domainId],
  certificates: (siteId: number) => ['user-site-certificates', siteId],
  allCertificates: (siteId: number) => ['user-site-certificates', siteId, 'all'],
  settings: (siteId: number) => ['user-site-settings', siteId],
  options: (siteId: number) => ['user-site-settings', siteId, 'options'],
  rates: (siteId: number) => ['user-site-settings', siteId, 'rates'],
  errorPages: (siteId: number) => ['user-site-error-pages', siteId],
};
