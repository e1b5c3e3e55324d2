import { agentProtocol } from '@edgekeep/contract';

export const int = (v: unknown) => {
  const n = Number.parseInt(String(v ?? ''), 10);
  return Number.isFinite(n) && n >= 0 ? n : 0;
};

/**
 * nginx writes one time per upstream tried ("0.010, 0.020" or "0.010 : 0.020" across redirects), and nothing
 * or "-" when no upstream was asked: the sum, or null.
 */
const upstreamSeconds = (v: unknown) => {
  const times = String(v ?? '')
    .split(/[,:]/)
    .map((t) => Number.parseFloat(t.trim()))
    .filter((t) => Number.isFinite(t));
  if (!times.length) return null;
  return Math.round(times.reduce((a, b) => a + b, 0) * 1000) / 1000;
};

/** `$msec` (seconds with milliseconds) as ISO-8601 UTC; nginx's own `$time_iso8601` carries the local offset. */
export const isoTime = ({ msec, time }: { msec: unknown; time: unknown }) => {
  const seconds = Number.parseFloat(String(msec ?? ''));
  return Number.isFinite(seconds) ? new Date(Math.round(seconds * 1000)).toISOString() : String(time ?? '');
};

const parseObject = (line: string) => {
  try {
    const raw = JSON.parse(line) as unknown;
    return raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};

/**
 * A log line's JSON object, or undefined when the line is not one. A write nginx could only make in part (a full
 * disk) leaves the start of a record without its newline, and the next record follows on the same line: that
 * record is read from where its first key starts again (values are JSON-escaped, so a quote cannot start one).
 */
export const jsonObject = (line: string) => {
  const whole = parseObject(line);
  if (whole || !line.startsWith('{"')) return whole;
  const start = line.slice(0, line.indexOf('":') + 2);
  const at = line.lastIndexOf(start);
  return at > 0 ? parseObject(line.slice(at)) : undefined;
};

export const text = (v: unknown) => (typeof v === 'string' && v !== '-' ? v : '');

/** One line of the access log the renderer configures (`log_format ek_json`) → the protocol's record, or undefined. */
export const parseAccessLine = ({ line }: { line: string }): agentProtocol.AccessLogLine | undefined => {
  const raw = jsonObject(line);
  if (!raw) return undefined;
  const site = Number.parseInt(String(raw.site ?? ''), 10);
  const parsed = agentProtocol.accessLogLine.safeParse({
    time: isoTime({ msec: raw.msec, time: raw.time }),
    siteId: Number.isInteger(site) && site > 0 ? site : null,
    domain: text(raw.domain),
    clientIp: text(raw.clientIp),
    country: text(raw.country),
    asn: text(raw.asn),
    method: text(raw.method),
    uri: text(raw.uri),
    status: int(raw.status),
    bytesSent: int(raw.bytesSent),
    bytesReceived: int(raw.bytesReceived),
    requestTime: Math.max(0, Number.parseFloat(String(raw.requestTime ?? '')) || 0),
    upstreamTime: upstreamSeconds(raw.upstreamTime),
    cacheStatus: text(raw.cacheStatus),
    httpVersion: text(raw.httpVersion),
    referer: text(raw.referer),
    userAgent: text(raw.userAgent),
    blockCause: text(raw.blockCause),
    requestId: text(raw.requestId),
    scheme: text(raw.scheme),
    region: text(raw.region),
    city: text(raw.city),
    isp: text(raw.isp),
    blockRule: text(raw.blockRule),
    blockAction: text(raw.blockAction),
  });
  return parsed.success ? parsed.data : undefined;
};
