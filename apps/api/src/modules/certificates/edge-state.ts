import type { EdgeFeature } from '../../agent-gateway/edge-feature';
import { decrypt } from '../../lib/crypto';

/** The certificates the domains serve, keys decrypted for the node. */
export const certificatesEdge: EdgeFeature = {
  name: 'certificates',
  certificates: async ({ deps }, sites) => {
    const ids = [...new Set(sites.flatMap((s) => s.domains.map((d) => d.certificateId)).filter((id): id is number => typeof id === 'number'))];
    if (!ids.length) return [];
    const rows = await deps.db.selectFrom('certificates').select(['id', 'chain', 'key_sealed']).where('id', 'in', ids).orderBy('id').execute();
    return rows.map((c) => ({ id: c.id, chain: c.chain, key: decrypt(deps.secrets.dataKey, c.key_sealed) }));
  },
};
