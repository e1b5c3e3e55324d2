import { agentProtocol } from '@edgekeep/contract';
import { REFUSED_UPSTREAM } from '../render/stream-firewall';
import { int, isoTime, jsonObject, text } from './parse-line';

/**
 * nginx's stream $status: 403 the blacklist (deny), 503 a connection limit; a country position sends the connection
 * to the refusing upstream, which nginx answers with 502 and names in $upstream_addr. Any other 502 is an origin
 * that failed: the connection was let through.
 */
const outcomeOf = ({ status, upstream }: { status: number; upstream: string }) =>
  status === 403 || status === 503 || (status === 502 && upstream === REFUSED_UPSTREAM) ? 'drop' : 'pass';

/** One line of the stream log (`log_format ek_stream`) → the protocol's record, or undefined. */
export const parseStreamLine = ({ line }: { line: string }): agentProtocol.StreamLogLine | undefined => {
  const raw = jsonObject(line);
  if (!raw) return undefined;
  const status = int(raw.status);
  const parsed = agentProtocol.streamLogLine.safeParse({
    time: isoTime({ msec: raw.msec, time: raw.time }),
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
