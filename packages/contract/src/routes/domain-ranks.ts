import * as s from '../schemas/domain-ranks';
import { paged } from '../paging';
import { defineRoute } from '../route';

const tag = 'Traffic';
const summary = 'Domains ranked by traffic (bytes sent) or requests in a window (default this month; siteID, startTime, endTime as ISO-8601 or unix seconds)';

export const domainRankRoutes = {
  user: defineRoute({ id: 'user.traffic.domainRanks', method: 'GET', path: 'user/traffic/domainRanks', tier: 'user', permission: 'dashboard.view', tag,
    summary, query: s.domainRanksQuery, response: paged(s.domainRankItem) }),
  client: defineRoute({ id: 'client.traffic.domainRanks', method: 'GET', path: 'client/traffic/domainRanks', tier: 'client', permission: 'traffic.view', tag,
    summary: `${summary}, over the client's users' sites`, query: s.domainRanksQuery, response: paged(s.domainRankItem) }),
} as const;
