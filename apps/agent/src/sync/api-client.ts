import { gzipSync } from 'node:zlib';
import { agentProtocol } from '@edgekeep/contract';

export type Fetch = typeof fetch;

/** A watch stream that sends nothing for this long is given up: the API sends a line at least every WATCH_SECONDS. */
const WATCH_SILENT_MS = (agentProtocol.WATCH_SECONDS + 15) * 1000;

type CallOptions = { method?: string; path: string; body?: unknown; gzip?: boolean; headers?: Record<string, string>; timeoutMs?: number; signal?: AbortSignal };

export type ApiClientOptions = { apiUrl: string; credential?: string; fetch?: Fetch };

/** The agent's side of `/agent/v1` (packages/contract/src/edge/agent-protocol.ts). */
export const createApiClient = ({ apiUrl, credential, fetch: doFetch = fetch }: ApiClientOptions) => {
  const endpoint = apiUrl.replace(/\/+$/, '') + agentProtocol.AGENT_BASE;

  const call = async ({ method = 'GET', path, body, gzip, timeoutMs = 30_000, signal, ...o }: CallOptions) => {
    const headers: Record<string, string> = { ...o.headers };
    if (credential) headers.authorization = `Node ${credential}`;
    let payload: Uint8Array | string | undefined;
    if (gzip) {
      headers['content-type'] = 'application/x-ndjson';
      headers['content-encoding'] = 'gzip';
      payload = gzipSync(body as string);
    } else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const timeout = AbortSignal.timeout(timeoutMs);
    const res = await doFetch(`${endpoint}${path}`, {
      method,
      headers,
      body: payload,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 500)}`.trim());
    return text ? (JSON.parse(text) as unknown) : undefined;
  };

  return {
    enroll: async (body: { token: string; hostname: string; version: string }) =>
      agentProtocol.enrollResult.parse(await call({ method: 'POST', path: '/enroll', body })),
    /**
     * The watch's answers as the API streams them, one a line, until it ends the stream; a stream silent for longer
     * than a watch answers (the API sends a line at least every WATCH_SECONDS) is given up. With the `etag` of the
     * state the node holds (`base`), an answer past `since` may carry the delta from it (`delta`), passed on as sent:
     * the caller checks it as it checks a state.
     */
    watchStream: async function* ({ since, base, signal }: { since: number; base?: string; signal?: AbortSignal }) {
      const silent = new AbortController();
      let timer = setTimeout(() => silent.abort(new Error('the watch stream fell silent')), WATCH_SILENT_MS);
      try {
        const headers: Record<string, string> = credential ? { authorization: `Node ${credential}` } : {};
        const path = `/watch/stream?since=${since}${base ? `&base=${encodeURIComponent(base)}` : ''}`;
        const res = await doFetch(`${endpoint}${path}`, { headers, signal: signal ? AbortSignal.any([signal, silent.signal]) : silent.signal });
        if (!res.ok || !res.body) throw new Error(`GET ${path}: ${res.status} ${(await res.text()).slice(0, 500)}`.trim());
        let pending = '';
        for await (const chunk of res.body.pipeThrough(new TextDecoderStream())) {
          clearTimeout(timer);
          timer = setTimeout(() => silent.abort(new Error('the watch stream fell silent')), WATCH_SILENT_MS);
          pending += chunk;
          for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
            const json = JSON.parse(pending.slice(0, end)) as unknown;
            pending = pending.slice(end + 1);
            const delta = json && typeof json === 'object' && 'delta' in json ? json.delta : undefined;
            yield { ...agentProtocol.watchResult.parse(json), delta };
          }
        }
      } finally {
        clearTimeout(timer);
      }
    },
    /**
     * The state as sent, unvalidated: a state the agent refuses is reported, so parsing is the caller's. With the
     * `etag` of the state the node holds (`base`), a delta from it when the API still keeps that build.
     */
    state: ({ signal, base }: { signal?: AbortSignal; base?: string } = {}) =>
      call({ path: base ? `/state?base=${encodeURIComponent(base)}` : '/state', signal }),
    report: async (body: agentProtocol.Report) => {
      await call({ method: 'POST', path: '/report', body });
    },
    commands: async () => agentProtocol.commandsResult.parse(await call({ path: '/commands' })).commands,
    commandResult: async ({ id, ok, message }: { id: number; ok: boolean; message: string }) => {
      await call({ method: 'POST', path: `/commands/${id}/result`, body: { ok, message } });
    },
    /** Access (or stream) log lines, each with its offset, of the log file named `file`. */
    logs: async ({ ndjson, file, kind = 'access' }: { ndjson: string; file: string; kind?: 'access' | 'stream' }) =>
      agentProtocol.logsResult.parse(
        await call({
          method: 'POST', path: kind === 'stream' ? agentProtocol.STREAM_LOGS_PATH : '/logs', body: ndjson, gzip: true,
          headers: { [agentProtocol.LOG_FILE_HEADER]: file, [agentProtocol.LOG_SENT_AT_HEADER]: String(Date.now()) },
        }),
      ).accepted,
    upgradeLog: async (body: agentProtocol.UpgradeLogBody) => {
      await call({ method: 'POST', path: agentProtocol.UPGRADE_LOG_PATH, body });
    },
    /** Fetches a file the control plane serves (a relative URL is taken from the API's origin). */
    download: async ({ url }: { url: string }) => {
      const target = new URL(url, apiUrl);
      const sameOrigin = target.origin === new URL(apiUrl).origin;
      const res = await doFetch(target, {
        headers: sameOrigin && credential ? { authorization: `Node ${credential}` } : {},
        signal: AbortSignal.timeout(600_000),
      });
      if (!res.ok || !res.body) throw new Error(`download ${target.pathname}: ${res.status}`);
      return res.body;
    },
  };
};

export type ApiClient = ReturnType<typeof createApiClient>;
