import type { EdgeFeature } from '../../agent-gateway/edge-feature';
import { decrypt } from '../../lib/crypto';
import { sealedCertificates } from './repo';

/** The certificates the domains serve, keys decrypted for the node. */
export const certificatesEdge: EdgeFeature = {
  name: 'certificates',
  certificates: async ({ deps }, sites) => {
    const ids = [...new Set(sites.flatMap((s) => s.domains.map((d) => d.certificateId)).filter((id): id is number => typeof id === 'number'))];
    if (!ids.length) return [];
    const rows = await sealedCertificates(deps.db, ids);
    return rows.map((c) => ({ id: c.id, chain: c.chain, key: decrypt(deps.secrets.dataKey, c.key_sealed) }));
  },
};
