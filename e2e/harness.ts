import { spawn, execFile, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { SMTPServer } from 'smtp-server';

export const ROOT = path.resolve(import.meta.dirname, '..');

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });

export type Mail = { to: string[]; raw: string };

/** A real SMTP server that keeps every message it receives. */
export async function startSmtpSink() {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, done) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=') });
        done();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    /** Waits for the newest mail to an address that matches a pattern; answers the first group. */
    async waitFor(to: string, pattern: RegExp, after = 0, timeoutMs = 10_000) {
      const end = Date.now() + timeoutMs;
      while (Date.now() < end) {
        const hit = mails.slice(after).reverse().find((m) => m.to.includes(to) && pattern.test(m.raw));
        if (hit) return pattern.exec(hit.raw)![1];
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no mail to ${to} matching ${pattern}`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type Server = {
  url: string;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  output: () => string;
  stop: () => Promise<void>;
  kill: () => Promise<void>;
  /** Starts it again after `kill`, on the same port and data directory (as a supervisor restarts a crashed process). */
  restart: () => Promise<void>;
};

/**
 * Starts the console on a free port with its own data directory as `npm start` does, from the build the lane made
 * once (build-once.ts): `npm run serve -w apps/api`, or the whole README command with `readme`; `keysFrom`: another
 * instance's data directory, whose platform keys this one shares (several instances on one database).
 */
export async function startServer(extraEnv: Record<string, string> = {}, { keysFrom, readme = false }: { keysFrom?: string; readme?: boolean } = {}): Promise<Server> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-e2e-'));
  if (keysFrom) fs.cpSync(path.join(keysFrom, 'keys'), path.join(dataDir, 'keys'), { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info', METRICS_PORT: 'off', ...extraEnv };
  // A shell running `npm start` has no NODE_ENV; the test runner's NODE_ENV=test would build a development console.
  delete env.NODE_ENV;
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const launch = async () => {
    const child: ChildProcess = spawn('npm', readme ? ['start'] : ['run', 'serve', '-w', 'apps/api'], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (c) => (output += c));
    child.stderr!.on('data', (c) => (output += c));
    // 'close' comes once every process of the group holding the output pipes has ended, so the output is complete.
    const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
      const ok = await fetch(`${url}/api/v1/health`).then((r) => r.ok, () => false);
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    return { child, exited };
  };
  let running = await launch();
  const ended = () => running.child.exitCode !== null || running.child.signalCode !== null;
  return {
    url,
    dataDir,
    env,
    output: () => output,
    /** Ends the server as a crash would (SIGKILL to its process group): no shutdown of its own. */
    async kill() {
      if (!ended()) process.kill(-running.child.pid!, 'SIGKILL');
      await running.exited;
    },
    async restart() {
      running = await launch();
    },
    async stop() {
      if (!ended()) process.kill(-running.child.pid!, 'SIGTERM');
      await running.exited;
      // The process group also holds the server itself, which may still be finishing its shutdown.
      for (let i = 0; i < 100 && (await fetch(`${url}/api/v1/health`).then(() => true, () => false)); i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Creates an account with the README's shell command against the server's data directory. */
export async function createAccountCli(server: Server, args: string[]) {
  const { stdout } = await promisify(execFile)('npm', ['run', '--silent', 'accounts', '--', 'create', ...args], { cwd: ROOT, env: server.env });
  return stdout;
}

/** A JSON call to the running server. */
export async function api(server: Pick<Server, 'url'>, method: string, url: string, opts: { token?: string; body?: unknown } = {}) {
  const res = await fetch(`${server.url}/api/v1/${url}`, {
    method,
    headers: { ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }), ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}) },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  return { status: res.status, body: (await res.json()) as { data?: any; total?: number; code?: number } };
}
