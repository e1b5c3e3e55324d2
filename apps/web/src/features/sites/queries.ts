import { MAX_PAGE_SIZE } from '@edgekeep/contract/constants';
import { useQuery } from '@tanstack/react-query';
import { sitesApi } from '../../api/sites';
import { keys } from './query-keys';

/** Every domain of the site (one page of the largest size), for the pickers that assign something to domains. */
export const useAllDomains = (siteId: number) =>
  useQuery({ queryKey: keys.allDomains(siteId), queryFn: () => sitesApi.domains(siteId, { page: 1, pageSize: MAX_PAGE_SIZE }) });
