import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../agent/src/test/servers';
import type { TxtPublisher } from '../src/modules/dns/provider';

const run = (cmd: string, args: string[], cwd: string) =>
  new Promise<void>((resolve, reject) => execFile(cmd, args, { cwd }, (err, _o, stderr) => (err ? reject(new Error(stderr || err.message)) : resolve())));

/** Whether Debian's pebble and pebble-challtestsrv are installed (scripts/debian-packages.txt). */
export const pebbleInstalled = () => ['/usr/bin/pebble', '/usr/bin/pebble-challtestsrv'].every((f) => fs.existsSync(f));

/** A CA of the test's own and a certificate for localhost signed by it: pebble's TLS, trusted through the CA bundle setting. */
async function tlsFor(dir: string) {
  await run('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', '/CN=pebble test CA', '-keyout', 'ca.key', '-out', 'ca.pem'], dir);
  await run('openssl', ['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-subj', '/CN=localhost', '-keyout', 'key.pem', '-out', 'req.csr'], dir);
  fs.writeFileSync(path.join(dir, 'ext.cnf'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  await run('openssl', ['x509', '-req', '-in', 'req.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '2', '-extfile', 'ext.cnf', '-out', 'cert.pem'], dir);
  return fs.readFileSync(path.join(dir, 'ca.pem'), 'utf8');
}

const getJson = (url: string, ca: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = https.get(url, { ca }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });

async function until(what: string, fn: () => Promise<boolean>, output: () => string) {
  for (let i = 0; i < 200; i++) {
    if (await fn().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what} did not start: ${output()}`);
}

export type Pebble = Awaited<ReturnType<typeof startPebble>>;

/**
 * pebble (the ACME test CA) and pebble-challtestsrv (its DNS, answering every name with 127.0.0.1 and the TXT
 * records the test sets) on free loopback ports. HTTP-01 validations go to `httpPort`; `eab` makes external account
 * binding required with these keys; `dnsServer` (host:port) has pebble validate against that DNS server instead.
 */
export async function startPebble(o: { httpPort?: number; eab?: Record<string, string>; dnsServer?: string } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-pebble-'));
  const caBundle = await tlsFor(dir);
  const [dnsPort, mgmtPort, acmePort, pebbleMgmt, tlsPort] = [await freePort(), await freePort(), await freePort(), await freePort(), await freePort()];
  const httpPort = o.httpPort ?? (await freePort());
  let output = '';
  const keep = (p: ChildProcess) => {
    p.stdout?.on('data', (c) => (output += c));
    p.stderr?.on('data', (c) => (output += c));
    return p;
  };
  const challtest = keep(
    spawn('/usr/bin/pebble-challtestsrv', ['-defaultIPv4', '127.0.0.1', '-defaultIPv6', '', '-dns01', `127.0.0.1:${dnsPort}`, '-http01', '', '-https01', '', '-tlsalpn01', '', '-management', `127.0.0.1:${mgmtPort}`], { stdio: ['ignore', 'pipe', 'pipe'] }),
  );
  const config = {
    pebble: {
      listenAddress: `127.0.0.1:${acmePort}`,
      managementListenAddress: `127.0.0.1:${pebbleMgmt}`,
      certificate: path.join(dir, 'cert.pem'),
      privateKey: path.join(dir, 'key.pem'),
      httpPort,
      tlsPort,
      ocspResponderURL: '',
      externalAccountBindingRequired: !!o.eab,
      ...(o.eab ? { externalAccountMACKeys: o.eab } : {}),
    },
  };
  fs.writeFileSync(path.join(dir, 'pebble.json'), JSON.stringify(config));
  const pebble = keep(
    spawn('/usr/bin/pebble', ['-config', path.join(dir, 'pebble.json'), '-dnsserver', o.dnsServer ?? `127.0.0.1:${dnsPort}`], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0', PEBBLE_AUTHZREUSE: '0' },
    }),
  );
  const directoryUrl = `https://localhost:${acmePort}/dir`;
  const management = `http://127.0.0.1:${mgmtPort}`;
  await until('pebble-challtestsrv', async () => (await fetch(`${management}/clear-txt`, { method: 'POST', body: JSON.stringify({ host: 'x.test.' }) })).ok, () => output);
  await until('pebble', async () => (await getJson(directoryUrl, caBundle)).status === 200, () => output);

  const post = async (call: string, body: unknown) => {
    const res = await fetch(`${management}/${call}`, { method: 'POST', body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`challtestsrv ${call}: ${res.status}`);
  };
  /** A DNS provider on challtestsrv's management API: what pebble's DNS-01 validation looks up. */
  const dns: TxtPublisher & { txt: Map<string, string[]> } = {
    txt: new Map(),
    async setTxt(fqdn, values) {
      await post('clear-txt', { host: `${fqdn}.` });
      for (const value of values) await post('set-txt', { host: `${fqdn}.`, value });
      dns.txt.set(fqdn, values);
    },
    async clearTxt(fqdn) {
      await post('clear-txt', { host: `${fqdn}.` });
      dns.txt.delete(fqdn);
    },
  };
  /** pebble's root for the certificates it issues (changes at every start). */
  const issuerRoot = async () => (await getJson(`https://localhost:${pebbleMgmt}/roots/0`, caBundle)).body;

  return {
    directoryUrl,
    caBundle,
    /** challtestsrv's management API (add-a, clear-a, set-txt, ...). */
    management,
    httpPort,
    dns,
    issuerRoot,
    output: () => output,
    async stop() {
      for (const p of [pebble, challtest]) if (p.exitCode === null) p.kill('SIGTERM');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
