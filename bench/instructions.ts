import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startPair } from './overhead';
import { sleep } from './stats';

const run = promisify(execFile);

/** `count` requests one after another on one kept-alive connection. */
const requests = async ({ port, host, count }: { port: number; host: string; count: number }) => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (let i = 0; i < count; i++) {
      const status = await new Promise<number>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: '/', headers: { host }, agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
        req.once('error', reject);
        req.end();
      });
      if (status !== 200) throw new Error(`request ${i + 1} answered ${status}`);
    }
  } finally {
    agent.destroy();
  }
};

/**
 * User-space instructions per request of one nginx configuration: nginx in one process under callgrind, `warm`
 * requests first (LuaJIT compiles its traces), then `counted` requests with the instruction count on.
 */
const countInstructions = async ({ prefix, port, host, warm, counted }: { prefix: string; port: number; host: string; warm: number; counted: number }) => {
  const out = await mkdtemp(join(tmpdir(), 'ek-bench-callgrind-'));
  const child = spawn(
    'valgrind',
    ['--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${out}/cg`, 'nginx', '-p', `${prefix}/`, '-c', 'conf/nginx.conf', '-g', 'daemon off; master_process off;'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  const exited = new Promise((r) => child.once('exit', r));
  try {
    for (let tries = 0; ; tries++) {
      if (child.exitCode !== null) throw new Error(`nginx under valgrind exited: ${stderr}`);
      if (await requests({ port, host, count: 1 }).then(() => true, () => false)) break;
      if (tries > 300) throw new Error(`nginx under valgrind did not answer: ${stderr}`);
      await sleep(100);
    }
    await requests({ port, host, count: warm });
    const pid = String(child.pid);
    await run('callgrind_control', ['-i', 'on', pid]);
    await requests({ port, host, count: counted });
    await run('callgrind_control', ['-i', 'off', pid]);
    await run('callgrind_control', ['-d', pid]);
    // The dump is written by the traced process after callgrind_control returns.
    for (let tries = 0; tries < 100; tries++) {
      const dump = await readFile(`${out}/cg.1`, 'utf8').catch(() => '');
      const total = Number(/^totals: (\d+)/m.exec(dump)?.[1]);
      if (total) return total / counted;
      await sleep(100);
    }
    throw new Error('callgrind wrote no instruction count');
  } finally {
    child.kill('SIGTERM');
    await exited;
    await rm(out, { recursive: true, force: true });
  }
};

/**
 * Data-plane overhead in instructions: the edge's nginx with its Lua runtime and the overhead rules against the same
 * configuration without Lua, user-space instructions per request, both counted in the same run. Unlike requests per
 * second, the count does not move with what else the machine is doing (kernel time, which both spend alike, is not
 * in it).
 */
export const instructions = async ({ warm = 1500, counted = 2000 }: { warm?: number; counted?: number } = {}) => {
  await run('valgrind', ['--version']).catch(() => {
    throw new Error('valgrind is not installed: run `bash bench/deps.sh` as root, or apt-get install valgrind');
  });
  const pair = await startPair();
  try {
    await pair.halt();
    const edge = await countInstructions({ ...pair.edge, host: pair.host, warm, counted });
    const plain = await countInstructions({ ...pair.plain, host: pair.host, warm, counted });
    const ratio = plain / edge;
    console.log(
      `instructions: edge with ${pair.rules.join(' + ')}: ${edge.toFixed(0)} per request · same nginx without Lua: ${plain.toFixed(0)} · ratio ${ratio.toFixed(3)} (callgrind, ${warm} requests to warm up, ${counted} counted, one keep-alive connection)`,
    );
    return { edgePerRequest: edge, plainPerRequest: plain, ratio, rules: pair.rules };
  } finally {
    await pair.stop();
  }
};
