/** react-query keys of the site option screens (the settings key is shared with the cache tab). */
export const optionKeys = {
  zonePorts: (siteId: number) => ['user-site-zone-ports', siteId],
  dns: (siteId: number) => ['user-site-dns', siteId],
  cacheTasks: (siteId: number) => ['user-site-cache-tasks', siteId],
  siteUsers: (siteId: number) => ['user-site-users', siteId],
  products: ['user-products'],
};
