import { useCan } from '../../app/use-self';
import { useTier } from '../../app/use-tier';

/**
 * The user tier's site keys the client tier has none of its own for: in client mode (the client works on its user's
 * site, see ClientSiteSetting) the client's site keys stand for them.
 */
const CLIENT_MODE_KEYS: Record<string, string> = {
  'certificates.view': 'sites.view',
  'certificates.edit': 'sites.edit',
  'errorPages.view': 'sites.view',
  'errorPages.edit': 'sites.edit',
  'firewall.view': 'sites.view',
  'firewall.edit': 'sites.edit',
};

/** useCan for the site settings' tabs, in the user area and in client mode alike. */
export function useSiteCan() {
  const can = useCan();
  const client = useTier() === 'client';
  return (key: string) => can(client ? (CLIENT_MODE_KEYS[key] ?? key) : key);
}
