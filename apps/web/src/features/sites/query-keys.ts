/** react-query keys of the site screens; a change refreshes what starts with them. */
export const keys = {
  sites: ['user-sites'],
  site: (siteId: number) => ['user-site', siteId],
  tags: ['user-site-tags'],
  domains: (siteId: number) => ['user-site-domains', siteId],
  certificates: (siteId: number) => ['user-site-certificates', siteId],
  settings: (siteId: number) => ['user-site-settings', siteId],
  errorPages: (siteId: number) => ['user-site-error-pages', siteId],
};
