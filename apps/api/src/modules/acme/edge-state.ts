import type { EdgeFeature } from '../../agent-gateway/edge-feature';
import { challengesOfZone } from './repo';

/** HTTP-01 answers of the orders running for the zone's domains. */
export const acmeEdge: EdgeFeature = {
  name: 'ACME challenges',
  zone: async ({ deps, zone }) => ({
    acmeChallenges: (await challengesOfZone(deps.db, zone.id)).map((c) => ({ name: c.name, token: c.token, keyAuthorization: c.key_authorization })),
  }),
};
