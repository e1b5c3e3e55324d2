import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { agentProtocol } from '@edgekeep/contract';

type Result = { id: number; ok: boolean; message: string };

const body = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

const send = ({ res, status, json }: { res: ServerResponse; status: number; json: unknown }) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(json));
};

/**
 * The control plane's side of `/agent/v1`, in memory: one node, one state (any JSON, so that tests can hand out a
 * broken one), a command queue, and everything the agent posted. Requests are checked against the contract.
 */
export const startFakeControlPlane = async ({ state, enrollToken, watchHoldMs = 1000 }: { state: unknown; enrollToken: string; watchHoldMs?: number }) => {
  const credential = randomBytes(24).toString('hex');
  let current = state;
  let nextCommand = 1;
  const revision = () => (current as { revision: number }).revision;
  const waiters = new Set<() => void>();
  const seen = {
    enrolments: [] as agentProtocol.EnrollResult[],
    reports: [] as agentProtocol.Report[],
    results: [] as Result[],
    logLines: [] as agentProtocol.AccessLogLine[],
    /** The log file (LOG_FILE_HEADER) of each line of logLines. */
    logFiles: [] as string[],
    batches: 0,
    queue: [] as agentProtocol.Command[],
  };

  const routes: Record<string, (req: IncomingMessage, url: URL) => Promise<[number, unknown]>> = {
    'POST /enroll': async (req) => {
      const asked = agentProtocol.enrollBody.parse(JSON.parse((await body(req)).toString()));
      if (asked.token !== enrollToken) return [401, { code: 101013, message: 'enrolment token not valid' }];
      const result = { nodeId: 1, nodeUID: 'node-test-1', credential };
      seen.enrolments.push(result);
      return [200, result];
    },
    'GET /state': async () => [200, current],
    'POST /report': async (req) => {
      seen.reports.push(agentProtocol.report.parse(JSON.parse((await body(req)).toString())));
      return [200, {}];
    },
    'GET /commands': async () => [200, { commands: seen.queue }],
    'GET /packages/edgekeep-agent.tgz': async () => [200, { package: 'edgekeep-agent', version: '0.2.0' }],
    'POST /logs': async (req) => {
      if (req.headers['content-encoding'] !== 'gzip') return [415, { message: 'gzip NDJSON expected' }];
      const lines = gunzipSync(await body(req)).toString('utf8').split('\n').filter(Boolean);
      seen.logLines.push(...lines.map((l) => agentProtocol.accessLogLine.strict().parse(JSON.parse(l))));
      seen.logFiles.push(...lines.map(() => String(req.headers[agentProtocol.LOG_FILE_HEADER])));
      seen.batches++;
      return [200, { accepted: lines.length }];
    },
  };

  const handle = async (req: IncomingMessage, url: URL): Promise<[number, unknown]> => {
    const path = url.pathname.slice(agentProtocol.AGENT_BASE.length);
    const route = routes[`${req.method} ${path}`];
    if (path !== '/enroll' && req.headers.authorization !== `Node ${credential}`) return [401, { message: 'node credential needed' }];
    if (route) return route(req, url);
    const result = /^\/commands\/(\d+)\/result$/.exec(path);
    if (req.method !== 'POST' || !result) return [404, { message: 'no such call' }];
    const id = Number(result[1]);
    seen.results.push({ id, ...agentProtocol.commandResult.parse(JSON.parse((await body(req)).toString())) });
    seen.queue = seen.queue.filter((c) => c.id !== id);
    return [200, {}];
  };

  /** The watch stream: a line at once, at each new state or queued action, and after `watchHoldMs` without one. */
  const watchStream = (res: ServerResponse, url: URL) => {
    agentProtocol.watchQuery.parse(Object.fromEntries(url.searchParams));
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    let timer: NodeJS.Timeout | undefined;
    const tell = () => {
      clearTimeout(timer);
      res.write(`${JSON.stringify({ revision: revision(), commands: seen.queue.length > 0 })}\n`);
      timer = setTimeout(tell, watchHoldMs);
    };
    waiters.add(tell);
    res.once('close', () => {
      clearTimeout(timer);
      waiters.delete(tell);
    });
    tell();
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (url.pathname === `${agentProtocol.AGENT_BASE}/watch/stream` && req.headers.authorization === `Node ${credential}`) return watchStream(res, url);
    handle(req, url).then(
      ([status, json]) => send({ res, status, json }),
      (err: Error) => send({ res, status: 400, json: { message: err.message } }),
    );
  });
  const listen = (port: number) => new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  await listen(0);
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    /** Hands out a new state (its revision is the state's) and tells the watch streams. */
    setState: (next: unknown) => {
      current = next;
      for (const wake of [...waiters]) wake();
    },
    /** Queues an action and tells the watch streams, which say that one waits (as the API does). */
    queue: ({ kind, args = {} }: { kind: agentProtocol.Command['kind']; args?: Record<string, unknown> }) => {
      const id = nextCommand++;
      seen.queue.push({ id, kind, args });
      for (const wake of [...waiters]) wake();
      return id;
    },
    /** Goes away (connections cut), as a control plane that is down. */
    stop: () =>
      new Promise<void>((resolve) => {
        for (const wake of [...waiters]) wake();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
    start: () => listen(port),
  };
};

export type FakeControlPlane = Awaited<ReturnType<typeof startFakeControlPlane>>;
