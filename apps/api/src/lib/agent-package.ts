import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { AGENT_ROOT as AGENT_DIR } from '@edgekeep/agent/root';

export const agentVersion = () => (JSON.parse(fs.readFileSync(path.join(AGENT_DIR, 'package.json'), 'utf8')) as { version: string }).version;
export const installScript = () => path.join(AGENT_DIR, 'install', 'install.sh');

let packing: Promise<string> | undefined;
/** The agent package that install.sh and the upgrade action fetch: packed once per version into DATA_DIR. */
export function agentPackage(dataDir: string) {
  packing ??= (async () => {
    const out = path.join(dataDir, 'agent-package');
    const file = path.join(out, `edgekeep-agent-${agentVersion()}.tgz`);
    if (fs.existsSync(file)) return file;
    const { stdout } = await promisify(execFile)('sh', [path.join(AGENT_DIR, 'install', 'pack.sh'), out]);
    return stdout.trim();
  })().catch((err: unknown) => {
    packing = undefined;
    throw err;
  });
  return packing;
}

/** The one line the enrolment dialog shows, to run as root on the node. */
export const installCommand = (api: string, token: string) =>
  `curl -fsSL ${api}/agent/install.sh | sudo EDGEKEEP_API=${api} EDGEKEEP_ENROLL_TOKEN=${token} EDGEKEEP_PACKAGE=${api}/agent/package.tgz sh`;

const checksums = new Map<string, string>();
/** The package's SHA-256 (hex), which the upgrade command carries and the agent checks; read again when the file changes. */
export async function packageChecksum(file: string) {
  const st = await fs.promises.stat(file);
  const key = `${file}:${st.size}:${st.mtimeMs}`;
  const known = checksums.get(key);
  if (known) return known;
  const sum = createHash('sha256').update(await fs.promises.readFile(file)).digest('hex');
  checksums.set(key, sum);
  return sum;
}
