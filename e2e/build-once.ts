import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ROOT } from './harness';

/**
 * The e2e lane's global setup: the first half of `npm start` (`npm run build`: the console, the API and the agent),
 * once for the lane. Each test's server then runs the second half, as `npm start` does after building.
 */
export default async function buildOnce() {
  const env = { ...process.env };
  // a shell running `npm start` has no NODE_ENV; the test runner's NODE_ENV=test would build a development console
  delete env.NODE_ENV;
  await promisify(execFile)('npm', ['run', 'build'], { cwd: ROOT, env, maxBuffer: 64 * 2 ** 20 });
}
