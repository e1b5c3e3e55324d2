import { readFile, statfs } from 'node:fs/promises';
import { loadavg, uptime } from 'node:os';

const numbers = (line: string) => line.trim().split(/\s+/).slice(1).map(Number);

/** CPU time from /proc/stat: all jiffies, and the idle ones (idle + iowait). */
const cpuTimes = async () => {
  const first = (await readFile('/proc/stat', 'utf8')).split('\n')[0];
  const [user, nice, system, idle, iowait = 0, irq = 0, softirq = 0, steal = 0] = numbers(first);
  return { total: user + nice + system + idle + iowait + irq + softirq + steal, idle: idle + iowait };
};

const memory = async () => {
  const text = await readFile('/proc/meminfo', 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0) * 1024;
  const totalBytes = kb('MemTotal');
  return { totalBytes, usedBytes: Math.max(0, totalBytes - kb('MemAvailable')) };
};

const disk = async ({ path }: { path: string }) => {
  const s = await statfs(path);
  return { totalBytes: s.blocks * s.bsize, usedBytes: (s.blocks - s.bfree) * s.bsize };
};

/** Bytes received and sent by every interface but loopback, since boot. */
const network = async () => {
  const lines = (await readFile('/proc/net/dev', 'utf8')).split('\n').slice(2);
  let rxBytes = 0;
  let txBytes = 0;
  for (const line of lines) {
    const [name, rest] = line.split(':');
    if (!rest || name.trim() === 'lo') continue;
    const fields = rest.trim().split(/\s+/).map(Number);
    rxBytes += fields[0];
    txBytes += fields[8];
  }
  return { rxBytes, txBytes };
};

/** Samples the node: CPU use since the previous sample, memory, the disk holding `path`, network counters, load. */
export const createSystemMetrics = ({ diskPath }: { diskPath: string }) => {
  let previous: { total: number; idle: number } | undefined;
  return async () => {
    const now = await cpuTimes();
    const spent = previous ? now.total - previous.total : 0;
    const cpuPercent = previous && spent > 0 ? Math.min(100, Math.max(0, (100 * (spent - (now.idle - previous.idle))) / spent)) : 0;
    previous = now;
    return {
      cpuPercent: Math.round(cpuPercent * 10) / 10,
      memory: await memory(),
      disk: await disk({ path: diskPath }),
      network: await network(),
      loadAverage: loadavg(),
      uptimeSeconds: Math.floor(uptime()),
    };
  };
};
