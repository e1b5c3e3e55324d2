import http from 'node:http';
import net from 'node:net';

type Answer = { status: number; body: Buffer };
type Pending = { resolve: (a: Answer) => void; reject: (e: Error) => void };

const HEAD_END = Buffer.from('\r\n\r\n');

/**
 * One kept-alive HTTP/1.1 connection of the scale-out swarm, its calls one after another (a call made while one is
 * under way waits for it). It writes a request as one string and reads answers by their Content-Length: a simulated
 * agent's call costs the swarm's one thread some tens of microseconds where node:http's client took about half a
 * millisecond, which made the swarm itself the tail of the propagation it measures. Answers without a Content-Length
 * (chunked) are refused, loudly. A closed or failed connection fails its calls and opens again on the next one.
 */
export function swarmConnection({ host, port }: { host: string; port: number }) {
  let socket: net.Socket | undefined;
  let buffered: Buffer = Buffer.alloc(0);
  /** Calls written and not answered: one at most, as calls wait for each other. */
  let inFlight: Pending | undefined;
  let chain: Promise<unknown> = Promise.resolve();

  const fail = (err: Error) => {
    socket?.destroy();
    socket = undefined;
    buffered = Buffer.alloc(0);
    const pending = inFlight;
    inFlight = undefined;
    pending?.reject(err);
  };

  /** The answer in `buffered`, once it is whole. */
  const read = () => {
    const headEnd = buffered.indexOf(HEAD_END);
    if (headEnd < 0 || !inFlight) return;
    const head = buffered.toString('latin1', 0, headEnd);
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    if (!length) return fail(new Error(`an answer without a Content-Length: ${head.split('\r\n')[0]}`));
    const end = headEnd + HEAD_END.length + Number(length[1]);
    if (buffered.length < end) return;
    const answer = { status: Number(head.slice(9, 12)), body: buffered.subarray(headEnd + HEAD_END.length, end) };
    buffered = buffered.subarray(end);
    const pending = inFlight;
    inFlight = undefined;
    // the server ends the connection after this answer (nginx does after keepalive_requests): the next call opens one
    if (/\r\nconnection:\s*close/i.test(head)) fail(new Error('connection closed'));
    pending.resolve(answer);
  };

  const open = () => {
    const s = net.connect({ host, port, noDelay: true });
    s.on('data', (chunk: Buffer) => {
      buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
      read();
    });
    s.on('error', (err) => socket === s && fail(err));
    s.on('close', () => socket === s && fail(new Error('connection closed')));
    return s;
  };

  /** `GET` (no body) or `POST` (a JSON body) of `path`, with `headers` (lines of `name: value`). */
  const call = (path: string, headers: string, body?: string) => {
    const next = chain.then(
      () =>
        new Promise<Answer>((resolve, reject) => {
          socket ??= open();
          inFlight = { resolve, reject };
          const payload = body === undefined ? '' : body;
          const method = body === undefined ? 'GET' : 'POST';
          const length = body === undefined ? '' : `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(payload)}\r\n`;
          socket.write(`${method} ${path} HTTP/1.1\r\nhost: ${host}:${port}\r\n${headers}${length}\r\n${payload}`);
        }),
    );
    chain = next.catch(() => undefined);
    return next;
  };

  return { call, close: () => fail(new Error('closed')) };
}

/**
 * A GET of the swarm answered in lines as they come (the agent's watch stream, application/x-ndjson): each line as
 * it is whole; ends with the answer, fails on a status other than 200, on a failure of the connection (one of its
 * own) and at `signal`. Few calls, each kept open: node:http's client costs nothing that matters here.
 */
export async function* swarmStream(o: { host: string; port: number; path: string; headers: Record<string, string>; signal: AbortSignal }) {
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    http.get({ host: o.host, port: o.port, path: o.path, headers: o.headers, agent: false, signal: o.signal }, resolve).on('error', reject);
  });
  if (res.statusCode !== 200) {
    res.resume();
    throw new Error(String(res.statusCode));
  }
  res.setEncoding('utf8');
  let pending = '';
  for await (const chunk of res as AsyncIterable<string>) {
    pending += chunk;
    for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
      yield pending.slice(0, end);
      pending = pending.slice(end + 1);
    }
  }
}
