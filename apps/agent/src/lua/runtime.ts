import { fileURLToPath } from 'node:url';

/** The Lua modules (`edgekeep.*`) that every release directory carries under `lua/`. */
export const LUA_RUNTIME_DIR = fileURLToPath(new URL('./edgekeep', import.meta.url));
