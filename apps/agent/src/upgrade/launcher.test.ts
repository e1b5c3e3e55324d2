import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSTALL_ROOT, switchTo, takeOutcome } from './releases';

const LAUNCHER = path.join(INSTALL_ROOT, 'apps/agent/bin/edgekeep-agent');

/** A stand-in installation whose agent appends its name to a trace file and exits with the code given. */
function install(root: string, name: string, code: number) {
  fs.mkdirSync(path.join(root, 'apps/agent/dist'), { recursive: true });
  fs.mkdirSync(path.join(root, 'apps/agent/bin'), { recursive: true });
  fs.copyFileSync(LAUNCHER, path.join(root, 'apps/agent/bin/edgekeep-agent'));
  fs.writeFileSync(
    path.join(root, 'apps/agent/dist/main.js'),
    `const { appendFileSync } = require('node:fs');\nappendFileSync(process.env.TRACE, '${name}\\n');\nprocess.exit(${code});\n`,
  );
  return root;
}

describe('bin/edgekeep-agent: starts releases/current, restarts on 75, rolls back a version that does not start', () => {
  let work: string;
  beforeAll(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-launcher-'));
  });
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it('rolls a switched-to version that exits at start back to the installed one, which reads why', async () => {
    const stateDir = path.join(work, 'state');
    const base = install(path.join(work, 'base'), 'base', 0);
    const broken = install(path.join(work, 'broken'), 'broken', 3);
    await switchTo({ stateDir, root: broken, mark: { upgradeId: 4, from: '0.0.9', to: '0.1.0' } });
    const trace = path.join(work, 'trace');
    await promisify(execFile)('sh', [path.join(base, 'apps/agent/bin/edgekeep-agent')], { env: { ...process.env, STATE_DIR: stateDir, TRACE: trace } });
    expect(fs.readFileSync(trace, 'utf8')).toBe('broken\nbase\n');
    expect(fs.existsSync(path.join(stateDir, 'releases/current'))).toBe(false);
    expect(await takeOutcome({ stateDir, version: '0.0.9' })).toEqual({ kind: 'failed', mark: { upgradeId: 4, from: '0.0.9', to: '0.1.0' }, code: 3 });
    expect(await takeOutcome({ stateDir, version: '0.0.9' })).toBeUndefined();
  });

  it('starts the agent again from releases/current when it exits with 75', async () => {
    const stateDir = path.join(work, 'state-2');
    const base = install(path.join(work, 'base-2'), 'base', 75);
    const next = install(path.join(work, 'next'), 'next', 0);
    fs.mkdirSync(path.join(stateDir, 'releases'), { recursive: true });
    const trace = path.join(work, 'trace-2');
    // The installed agent "upgrades": it points current at the next version and exits 75.
    fs.writeFileSync(
      path.join(base, 'apps/agent/dist/main.js'),
      `const { appendFileSync, symlinkSync } = require('node:fs');\nappendFileSync(process.env.TRACE, 'base\\n');\nsymlinkSync('${next}', '${stateDir}/releases/current');\nprocess.exit(75);\n`,
    );
    await promisify(execFile)('sh', [path.join(base, 'apps/agent/bin/edgekeep-agent')], { env: { ...process.env, STATE_DIR: stateDir, TRACE: trace } });
    expect(fs.readFileSync(trace, 'utf8')).toBe('base\nnext\n');
  });
});
