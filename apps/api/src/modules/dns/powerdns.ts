/** A record set as the platform writes it: all records of one name and type; no records deletes the set. */
export type RrsetChange = { name: string; type: string; records: string[]; ttl: number };

export type PowerDnsOptions = { apiUrl: string; apiKey: string; serverID: string; timeoutMs?: number };

/** What the provider answered when it refused or could not be reached; the message is safe to show. */
export class DnsProviderError extends Error {}

const dot = (name: string) => (name.endsWith('.') ? name.toLowerCase() : `${name.toLowerCase()}.`);

/** The PowerDNS Authoritative HTTP API (api=yes): server info, zones and record sets. */
export function powerDns({ apiUrl, apiKey, serverID, timeoutMs = 5000 }: PowerDnsOptions) {
  const base = `${apiUrl}/api/v1/servers/${encodeURIComponent(serverID)}`;
  async function request(method: string, path: string, body?: unknown) {
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method,
        headers: { 'X-API-Key': apiKey, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw new DnsProviderError(`PowerDNS at ${apiUrl} cannot be reached: ${(err as Error).message}`);
    }
    const text = await res.text();
    if (res.status === 401 || res.status === 403) throw new DnsProviderError('PowerDNS refused the API key');
    if (!res.ok) {
      let reason = text.slice(0, 200);
      try {
        reason = (JSON.parse(text) as { error?: string }).error ?? reason;
      } catch {
        // not JSON: the text itself
      }
      const error = new DnsProviderError(`PowerDNS answered ${res.status}: ${reason}`);
      (error as DnsProviderError & { status: number }).status = res.status;
      throw error;
    }
    return text ? (JSON.parse(text) as unknown) : null;
  }
  const zonePath = (zone: string) => `/zones/${encodeURIComponent(dot(zone))}`;

  return {
    async info() {
      const info = (await request('GET', '')) as { version?: string; daemon_type?: string } | null;
      if (!info || info.daemon_type !== 'authoritative') throw new DnsProviderError('the address does not answer as a PowerDNS authoritative server');
      return { version: info.version ?? '' };
    },
    async zones() {
      const list = (await request('GET', '/zones')) as { name: string }[];
      return list.map((z) => z.name.replace(/\.$/, ''));
    },
    /** Makes the zone (native, served from the backend) unless it is there. */
    async ensureZone(zone: string) {
      try {
        await request('GET', `${zonePath(zone)}?rrsets=false`);
      } catch (err) {
        if ((err as { status?: number }).status !== 404 && (err as { status?: number }).status !== 422) throw err;
        await request('POST', '/zones', { name: dot(zone), kind: 'Native', nameservers: [], rrsets: [] });
      }
    },
    async patch(zone: string, changes: RrsetChange[]) {
      if (!changes.length) return;
      await request('PATCH', zonePath(zone), {
        rrsets: changes.map((c) =>
          c.records.length
            ? { name: dot(c.name), type: c.type, ttl: c.ttl, changetype: 'REPLACE', records: c.records.map((content) => ({ content, disabled: false })) }
            : { name: dot(c.name), type: c.type, changetype: 'DELETE' },
        ),
      });
    },
  };
}
export type PowerDnsClient = ReturnType<typeof powerDns>;
