import { applyState } from '@edgekeep/agent/apply';
import { edge } from '@edgekeep/contract';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const LUA_MODULE = '/usr/lib/nginx/modules/ngx_http_lua_module.so';
type Directives = { main: string; http: string; stream: string; server: string };

/** An edge configuration with one site, the directives in their places: what every node of the zones would render. */
const sampleState = (directives: Directives) =>
  edge.desiredState.parse({
    revision: 1,
    structure: {
      zone: { httpPorts: [8080], httpsPorts: [8443], nginx: { workerProcesses: 1 }, directives },
      sites: [{ id: 1, name: 'check', domains: [{ id: 1, name: 'check.example.com', origins: [{ host: '127.0.0.1' }] }] }],
    },
  });

/**
 * Where this machine has the edge's nginx (with the Lua module), renders the edge configuration with the
 * directives into a throwaway prefix and lets `nginx -t` and the Lua preflight judge it, as each node's guarded
 * apply does; answers nginx's complaint, or undefined when it is fine or there is no nginx here to ask.
 */
export async function nginxRefusal(directives: Directives): Promise<string | undefined> {
  if (!(await access(LUA_MODULE).then(() => true, () => false))) return undefined;
  const prefix = await mkdtemp(join(tmpdir(), 'ek-nginx-check-'));
  try {
    const result = await applyState({ state: sampleState(directives), prefix, controlPort: 1 });
    if (result.ok) return undefined;
    return result.error.split(prefix).join('').replace(/\/releases\/[^/\s]+\//g, '');
  } catch (err) {
    // nginx itself could not be run (not on PATH): the nodes' guarded apply still judges the directives.
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : String(err);
  } finally {
    await rm(prefix, { recursive: true, force: true });
  }
}
