import { join } from 'node:path';
import { AGENT_ROOT } from '../agent-root';

/** The Lua modules (`edgekeep.*`) that every release directory carries under `lua/`. */
export const LUA_RUNTIME_DIR = join(AGENT_ROOT, 'src/lua/edgekeep');
