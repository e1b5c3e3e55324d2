import { execFile } from 'node:child_process';
import net from 'node:net';

export type ProbeTarget = {
  type: 'status' | 'content' | 'tcp' | 'ping';
  /** The node's address: what {host} stands for, and what TCP and ping reach. */
  host: string;
  url: string;
  port: number;
  statusCode: string;
  content: string;
  timeoutMs: number;
};

const hostPart = (host: string) => (host.includes(':') ? `[${host}]` : host);

async function http(t: ProbeTarget): Promise<string | null> {
  const url = t.url.startsWith('{host}') ? `http://${hostPart(t.host)}${t.url.slice('{host}'.length)}` : t.url;
  const res = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(t.timeoutMs) });
  if (t.type === 'status') {
    await res.body?.cancel();
    return String(res.status) === t.statusCode ? null : `HTTP ${res.status}, expected ${t.statusCode}`;
  }
  const body = await res.text();
  return body.includes(t.content) ? null : `HTTP ${res.status}: the content was not found`;
}

const tcp = (t: ProbeTarget) =>
  new Promise<string | null>((resolve) => {
    const socket = net.connect({ host: t.host, port: t.port });
    const finish = (error: string | null) => {
      socket.destroy();
      resolve(error);
    };
    socket.setTimeout(t.timeoutMs, () => finish(`TCP ${t.port}: timed out`));
    socket.once('connect', () => finish(null));
    socket.once('error', (err) => finish(`TCP ${t.port}: ${err.message}`));
  });

const ping = (t: ProbeTarget) =>
  new Promise<string | null>((resolve) => {
    const seconds = String(Math.max(1, Math.ceil(t.timeoutMs / 1000)));
    execFile('ping', ['-c', '1', '-W', seconds, t.host], { timeout: t.timeoutMs + 1000 }, (err) => resolve(err ? `ping: no answer from ${t.host}` : null));
  });

/** One real probe of the target: null when it answered as expected, otherwise what went wrong. */
export async function probe(t: ProbeTarget): Promise<string | null> {
  try {
    if (t.type === 'tcp') return await tcp(t);
    if (t.type === 'ping') return await ping(t);
    return await http(t);
  } catch (err) {
    return `${t.type === 'status' || t.type === 'content' ? 'HTTP' : t.type}: ${(err as Error).message}`.slice(0, 500);
  }
}
