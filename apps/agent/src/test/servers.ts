import { createServer as createHttpServer, request, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createServer as createTcpServer, connect, type AddressInfo } from 'node:net';

/**
 * A port nothing listens on, from 10000–32767: below Linux's ephemeral range (32768–60999), which the machine's own
 * outgoing connections draw from, so a port handed to nginx is not taken by a client socket before nginx binds it.
 */
export const freePort = async (): Promise<number> => {
  for (;;) {
    const port = 10_000 + Math.floor(Math.random() * 22_768);
    const free = await new Promise<boolean>((resolve) => {
      const s = createTcpServer();
      s.once('error', () => resolve(false));
      s.listen(port, '0.0.0.0', () => s.close(() => resolve(true)));
    });
    if (free) return port;
  }
};

/** An HTTP origin that names itself and counts the requests it gets. */
export const startOrigin = async ({ name }: { name: string }) => {
  const hits: string[] = [];
  const server = createHttpServer((req, res) => {
    hits.push(req.url ?? '');
    res.setHeader('content-type', 'application/json');
    // `peer`: the port of the connection it came on, which tells a kept connection from a new one
    res.end(JSON.stringify({ origin: name, url: req.url, host: req.headers.host, hit: hits.length, peer: req.socket.remotePort }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { port, hits, close: () => new Promise<void>((r) => server.close(() => r())) };
};

/** A TCP server that answers every chunk with `echo:` and the chunk. */
export const startTcpEcho = async () => {
  const server = createTcpServer((socket) => socket.on('data', (d) => socket.write(`echo:${d}`)));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { port, close: () => new Promise<void>((r) => server.close(() => r())) };
};

export const tcpRoundTrip = ({ port, message }: { port: number; message: string }) =>
  new Promise<string>((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' }, () => socket.write(message));
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer')));
    socket.once('data', (d) => {
      resolve(d.toString());
      socket.end();
    });
    socket.once('error', reject);
  });

/** What an L4 port answers to "hi" before it closes, from address `from`: '' when the connection is refused or closed at once. */
export const tcpAnswer = ({ port, from }: { port: number; from?: string }) =>
  new Promise<string>((resolve) => {
    let got = '';
    const socket = connect({ port, host: '127.0.0.1', localAddress: from }, () => socket.write('hi'));
    socket.setTimeout(5000, () => socket.destroy());
    socket.on('data', (d) => {
      got += d.toString();
      socket.end();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(got));
  });

export type Answer = { status: number; headers: IncomingHttpHeaders; body: string };

/** An HTTP(S) request with a chosen Host header (fetch does not let one set it); HTTPS verifies against `ca`. */
export const get = ({ port, host, path = '/', ca }: { port: number; host: string; path?: string; ca?: string }) =>
  new Promise<Answer>((resolve, reject) => {
    const options = { host: '127.0.0.1', port, path, headers: { host }, agent: false as const };
    const onResponse = (res: IncomingMessage) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    };
    const req = ca ? httpsRequest({ ...options, servername: host, ca }, onResponse) : request(options, onResponse);
    req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
    req.once('error', reject);
    req.end();
  });
