import { createRequire } from 'node:module';
import { dirname } from 'node:path';

/**
 * The agent package's directory (apps/agent), found by the package's name: it holds alike when the agent runs from
 * its sources, from its build (dist/main.js) and inside the API's build, which carries the agent's code.
 */
export const AGENT_ROOT = dirname(createRequire(import.meta.url).resolve('@edgekeep/agent/package.json'));
