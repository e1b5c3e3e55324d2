import { agentProtocol } from '@edgekeep/contract';
import { REFUSED_UPSTREAM } from '../render/stream-firewall';

const int = (v: unknown) => {
  const n = Number.parseInt(String(v ?? ''), 10);
  return Number.isFinite(n) && n >= 0 ? n : 0;
};
const text = (v: unknown) => (typeof v === 'string' && v !== '-' ? v : '');

/**
 * nginx's stream $status: 403 the blacklist (deny), 503 a connection limit; a country position sends the connection
 * to the refusing upstream, which nginx answers with 502 and names in $upstream_addr. Any other 502 is an origin
 * that failed: the connection was let through.
 */
const outcomeOf = ({ status, upstream }: { status: number; upstream: string }) =>
  status === 403 || status === 503 || (status === 502 && upstream === REFUSED_UPSTREAM) ? 'drop' : 'pass';

/** One line of the stream log (`log_format ek_stream`) → the protocol's record, or undefined. */
export const parseStreamLine = ({ line }: { line: string }): agentProtocol.StreamLogLine | undefined => {
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (!raw || typeof raw !== 'object') return undefined;
  const seconds = Number.parseFloat(String(raw.msec ?? ''));
  const status = int(raw.status);
  const parsed = agentProtocol.streamLogLine.safeParse({
    time: Number.isFinite(seconds) ? new Date(Math.round(seconds * 1000)).toISOString() : text(raw.time),
    siteId: int(raw.site),
    port: int(raw.port),
    protocol: text(raw.protocol),
    clientIp: text(raw.clientIp),
    outcome: outcomeOf({ status, upstream: text(raw.upstream) }),
    status,
    bytesSent: int(raw.bytesSent),
    bytesReceived: int(raw.bytesReceived),
    sessionTime: Math.max(0, Number.parseFloat(String(raw.sessionTime ?? '')) || 0),
    country: text(raw.country),
    asn: text(raw.asn),
    coloCountry: text(raw.colo),
  });
  return parsed.success ? parsed.data : undefined;
};
