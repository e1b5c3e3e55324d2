import type { AppDeps } from '../../deps';

/**
 * The DNS provider of the system settings (client/setting/dns): the server that answers the platform's names. Site
 * CNAMEs answer the addresses of their group's healthy nodes from it, and ACME DNS-01 challenges are published
 * through it.
 */
export interface DnsProvider {
  /** Publishes exactly these TXT values at a name (an ACME challenge), replacing what was there. */
  setTxt(fqdn: string, values: string[]): Promise<void>;
  /** Removes the TXT records at a name. */
  clearTxt(fqdn: string): Promise<void>;
}

/** The configured provider, or null when no DNS type is set (then wildcards cannot be validated). */
export async function dnsProvider(_deps: AppDeps): Promise<DnsProvider | null> {
  return null;
}
