import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { percentile } from './stats';

const ROOT = join(import.meta.dirname, '..');
/** The Node flags `npm start` runs the compiled API with (apps/api's serve script). */
export const SERVE_FLAGS = (JSON.parse(readFileSync(join(ROOT, 'apps/api/package.json'), 'utf8')) as { scripts: { serve: string } }).scripts.serve
  .split(/\s+/)
  .filter((arg) => arg.startsWith('--'));
const WAYS = {
  tsx: ['--import', 'tsx', join(ROOT, 'apps/api/src/server.ts')],
  compiled: [...SERVE_FLAGS, join(ROOT, 'apps/api/dist/server.js')],
} as const;
type Way = keyof typeof WAYS;

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** The CPU time (user + system, ms) a process has used so far, from /proc (clock ticks of 10 ms). */
const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

/**
 * From spawning the API to its "Server listening" log line: the time, and the CPU time the process used (which a
 * loaded machine does not stretch); the process is stopped then.
 */
const startOnce = async (way: Way, dataDir: string) => {
  const started = performance.now();
  const child = spawn(process.execPath, WAYS[way], { cwd: join(ROOT, 'apps/api'), env: { ...process.env, DATA_DIR: dataDir, PORT: String(await freePort()), NODE_ENV: 'production' }, stdio: ['ignore', 'pipe', 'inherit'] });
  const listening = await new Promise<{ ms: number; cpuMs: number }>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      if (out.includes('Server listening')) resolve({ ms: performance.now() - started, cpuMs: cpuMs(child.pid!) });
    });
    child.on('exit', (code) => reject(new Error(`the API (${way}) exited with ${code} before listening:\n${out}`)));
  });
  child.removeAllListeners('exit');
  await new Promise((r) => child.once('exit', r).kill('SIGTERM'));
  return listening;
};

/**
 * The API's start, from its process spawned to its "Server listening" line, on a database already migrated: run
 * through tsx from the TypeScript sources, and compiled (apps/api/dist/server.js, as `npm start` runs it), in
 * alternating rounds.
 */
export const apiStart = async ({ rounds = 5 }: { rounds?: number } = {}) => {
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-server.mjs'), 'api'], { stdio: 'inherit' });
  const dataDir = mkdtempSync(join(tmpdir(), 'ek-bench-start-'));
  try {
    await startOnce('compiled', dataDir); // creates and migrates the database
    const samples: Record<Way, { ms: number; cpuMs: number }[]> = { tsx: [], compiled: [] };
    for (let i = 0; i < rounds; i++) for (const way of Object.keys(WAYS) as Way[]) samples[way].push(await startOnce(way, dataDir));
    const p50 = (way: Way, key: 'ms' | 'cpuMs') => percentile({ samples: samples[way].map((s) => s[key]), p: 50 });
    const s = (n: number) => `${(n / 1000).toFixed(2)} s`;
    const line = (way: Way) => `${way} p50 ${s(p50(way, 'ms'))}, CPU ${s(p50(way, 'cpuMs'))} (rounds ${samples[way].map((r) => s(r.ms)).join(', ')})`;
    console.log(`${line('tsx')} · ${line('compiled')}`);
    return { tsxP50Ms: p50('tsx', 'ms'), tsxCpuP50Ms: p50('tsx', 'cpuMs'), compiledP50Ms: p50('compiled', 'ms'), compiledCpuP50Ms: p50('compiled', 'cpuMs'), samples };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
};
