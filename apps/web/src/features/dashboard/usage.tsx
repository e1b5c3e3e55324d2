import { DomainRankCard } from '../domain-ranks/domain-rank-card';
import { ResourceCards } from '../traffic/resource-cards';

/** Resource usage (spec §2: sites, domains, this and last month's traffic) and the domain ranking. */
export const Usage = () => (
  <>
    <ResourceCards />
    <DomainRankCard />
  </>
);
