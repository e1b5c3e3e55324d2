import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSTALL_ROOT } from './releases';
import { runUpgrade } from './upgrade';

const VERSION = (JSON.parse(fs.readFileSync(path.join(INSTALL_ROOT, 'apps/agent/package.json'), 'utf8')) as { version: string }).version;
const sha = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** The control plane's side as the upgrade uses it: files by URL, and the steps posted. */
const fakeApi = (files: Record<string, string>) => {
  const steps: { upgradeId: number; message: string; progress?: number; state?: string }[] = [];
  return {
    steps,
    download: async ({ url }: { url: string }) => Readable.toWeb(fs.createReadStream(files[url])) as ReadableStream<Uint8Array>,
    upgradeLog: async (body: (typeof steps)[number]) => void steps.push(body),
  };
};

describe('agent upgrade: fetch, verify, unpack beside, self-check, switch', () => {
  let work: string;
  let good: string;
  let broken: string;

  beforeAll(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-upgrade-'));
    good = execFileSync('sh', [path.join(INSTALL_ROOT, 'apps/agent/install/pack.sh'), path.join(work, 'good')], { encoding: 'utf8' }).trim();
    // The same package with an agent that cannot start.
    const unpacked = path.join(work, 'broken-src');
    fs.mkdirSync(unpacked);
    execFileSync('tar', ['-xzf', good, '-C', unpacked]);
    const main = path.join(unpacked, 'edgekeep/apps/agent/dist/main.js');
    fs.writeFileSync(main, `throw new Error('this build is broken');\n${fs.readFileSync(main, 'utf8')}`);
    broken = path.join(work, 'broken.tgz');
    execFileSync('tar', ['-czf', broken, '-C', unpacked, 'edgekeep']);
  });
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  const attempt = async (o: { file: string; sha256?: string; version?: string }) => {
    const stateDir = fs.mkdtempSync(path.join(work, 'state-'));
    const api = fakeApi({ '/agent/package.tgz': o.file });
    let restarts = 0;
    const result = await runUpgrade({
      api, stateDir, version: '0.0.9', requestRestart: () => restarts++,
      args: { version: o.version ?? VERSION, url: '/agent/package.tgz', sha256: o.sha256 ?? sha(o.file), upgradeId: 7 },
    }).then((message) => ({ ok: true, message }), (err: Error) => ({ ok: false, message: err.message }));
    const current = fs.existsSync(path.join(stateDir, 'releases/current')) ? fs.realpathSync(path.join(stateDir, 'releases/current')) : undefined;
    return { ...result, steps: api.steps, restarts, current, stateDir };
  };

  it('refuses a package whose checksum differs, and stays', async () => {
    const r = await attempt({ file: good, sha256: 'f'.repeat(64) });
    expect(r).toMatchObject({ ok: false, restarts: 0, current: undefined });
    expect(r.message).toMatch(/^checksum mismatch/);
    expect(r.steps.at(-1)).toMatchObject({ upgradeId: 7, state: 'failed', message: expect.stringContaining('stays on 0.0.9') });
  });

  it('refuses a package that does not unpack or holds another version', async () => {
    const junk = path.join(work, 'junk.tgz');
    fs.writeFileSync(junk, 'not a tarball');
    expect((await attempt({ file: junk })).message).toMatch(/^bad package: it does not unpack/);
    const other = await attempt({ file: good, version: '9.9.9' });
    expect(other.message).toBe(`bad package: it holds version ${VERSION}, not 9.9.9`);
    expect(other.current).toBeUndefined();
  });

  it('refuses a version that fails to start, and stays', async () => {
    const r = await attempt({ file: broken });
    expect(r).toMatchObject({ ok: false, restarts: 0, current: undefined });
    expect(r.message).toMatch(/the new version fails to start .*this build is broken/s);
  });

  it('switches over to a good package, marks the switch pending and asks for a restart', async () => {
    const r = await attempt({ file: good });
    expect(r).toMatchObject({ ok: true, restarts: 1 });
    expect(r.current).toMatch(new RegExp(`releases/${VERSION.replace(/\./g, '\\.')}-\\d+/edgekeep$`));
    expect(JSON.parse(fs.readFileSync(path.join(r.stateDir, 'releases/pending.json'), 'utf8'))).toEqual({ upgradeId: 7, from: '0.0.9', to: VERSION });
    expect(r.steps.map((s) => s.progress)).toEqual([10, 30, 45, 55, 75, 90]);
    expect(fs.existsSync(path.join(r.current!, 'node_modules/@edgekeep/agent/dist/main.js'))).toBe(true);
  });
});
