import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import dgram from 'node:dgram';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';

const PDNS = '/usr/sbin/pdns_server';
const SCHEMA = '/usr/share/pdns-backend-sqlite3/schema/schema.sqlite3.sql';

/** Whether this machine has PowerDNS with the SQLite backend and dig (Debian pdns-server, pdns-backend-sqlite3, bind9-dnsutils). */
export const powerDnsInstalled = () => fs.existsSync(PDNS) && fs.existsSync(SCHEMA) && spawnSync('dig', ['-v']).status === 0;

export type PowerDns = {
  /** The HTTP API's base address (http://127.0.0.1:PORT). */
  apiUrl: string;
  apiKey: string;
  /** The DNS port on 127.0.0.1 (UDP and TCP). */
  dnsPort: number;
  /** For DNS_RESOLVERS. */
  address: string;
  /** Answers of `dig` for a name and type: the values, in order. */
  dig(name: string, type?: string): string[];
  stop(): Promise<void>;
};

async function freePort() {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const s = net.createServer();
      s.once('error', reject);
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    // The DNS side also listens on UDP: make sure that port is free too.
    const udpFree = await new Promise<boolean>((resolve) => {
      const sock = dgram.createSocket('udp4');
      sock.once('error', () => resolve(false));
      sock.bind(port, '127.0.0.1', () => sock.close(() => resolve(true)));
    });
    if (udpFree) return port;
  }
}

/**
 * A real PowerDNS authoritative server for a test: a temp config directory and SQLite database, DNS and the HTTP
 * API (api=yes, a random key) on free ports of 127.0.0.1. Waits until the API answers.
 */
export async function startPowerDns(): Promise<PowerDns> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-pdns-'));
  const db = new Database(path.join(dir, 'pdns.sqlite3'));
  db.exec(fs.readFileSync(SCHEMA, 'utf8'));
  db.close();
  const dnsPort = await freePort();
  const apiPort = await freePort();
  const apiKey = crypto.randomBytes(16).toString('hex');
  fs.writeFileSync(
    path.join(dir, 'pdns.conf'),
    [
      'launch=gsqlite3',
      `gsqlite3-database=${path.join(dir, 'pdns.sqlite3')}`,
      'local-address=127.0.0.1',
      `local-port=${dnsPort}`,
      'api=yes',
      `api-key=${apiKey}`,
      'webserver=yes',
      'webserver-address=127.0.0.1',
      `webserver-port=${apiPort}`,
      'webserver-allow-from=127.0.0.0/8',
      `socket-dir=${dir}`,
      'guardian=no',
      'daemon=no',
      'disable-syslog=yes',
      'loglevel=3',
      'zone-cache-refresh-interval=0',
      'cache-ttl=0',
      'negquery-cache-ttl=0',
      'query-cache-ttl=0',
      'consistent-backends=yes',
    ].join('\n') + '\n',
  );
  const child: ChildProcess = spawn(PDNS, [`--config-dir=${dir}`], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (c) => (stderr += String(c)));
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`pdns_server exited: ${stderr}`);
    const ok = await fetch(`${apiUrl}/api/v1/servers/localhost`, { headers: { 'X-API-Key': apiKey } }).then((r) => r.ok, () => false);
    if (ok) break;
    if (i > 200) throw new Error(`pdns_server did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    apiUrl,
    apiKey,
    dnsPort,
    address: `127.0.0.1:${dnsPort}`,
    dig(name, type = 'A') {
      const out = spawnSync('dig', ['+short', '+tries=1', '+time=2', '-p', String(dnsPort), '@127.0.0.1', name, type], { encoding: 'utf8' });
      return out.stdout.split('\n').map((l) => l.trim()).filter(Boolean);
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
