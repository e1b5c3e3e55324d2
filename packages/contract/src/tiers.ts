/** The three account tiers; each has its own console area, endpoint prefix and cookies. */
export const TIERS = ['admin', 'client', 'user'] as const;
export type Tier = (typeof TIERS)[number];

/** Cookie names are the tier's first letter, an underscore and the token field. */
export const cookiePrefix = (tier: Tier) => `${tier[0]}_`;

/** The tier of a console path: its first segment, where anything but admin or client is user. */
export function tierFromPath(pathname: string): Tier {
  const first = pathname.split('/').filter(Boolean)[0];
  return first === 'admin' || first === 'client' ? first : 'user';
}
