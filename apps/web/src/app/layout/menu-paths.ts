import type { Tier } from '@edgekeep/contract/tiers';

/** The user tier's list is usersList; the client's and admin's is users (spec §2). */
export const USERS_PATH: Record<Tier, string> = { admin: 'users', client: 'users', user: 'usersList' };

/** A screen hidden by default, shown when the server turns it on (branding call). */
export type Feature = 'l4AttackAnalysis';
