/**
 * Whether what a test file needs from the machine (nginx, pebble, PostgreSQL) is here. In CI (CI=true) its absence
 * fails the run rather than skipping the file's tests silently; on a developer's machine they skip, and a warning
 * says why.
 */
export function requiredInCi(ready: boolean, need: string): boolean {
  if (ready) return true;
  if (process.env.CI === 'true') throw new Error(need);
  console.warn(`skipping: ${need}`);
  return false;
}
