// Compiles the API and the agent once into plain JavaScript, as the console is built: each into one ES module file
// (apps/api/dist/server.js, apps/agent/dist/main.js) holding its code, the workspace packages it imports and the
// JavaScript of its dependencies, so that a start reads one file instead of resolving and compiling hundreds.
// Packages with a native addon (and the optional ones that are not installed) load from node_modules.
// Usage: node scripts/build-server.mjs [api] [agent]   (both when none is named)
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const targets = {
  api: {
    entry: 'apps/api/src/server.ts',
    out: 'apps/api/dist/server.js',
    external: ['better-sqlite3', '@duckdb/node-api', '@node-rs/argon2', 'pg-native'],
  },
  agent: { entry: 'apps/agent/src/main.ts', out: 'apps/agent/dist/main.js', external: [] },
};

const names = process.argv.slice(2);
for (const name of names.length ? names : Object.keys(targets)) {
  const target = targets[name];
  if (!target) throw new Error(`unknown target ${name}: ${Object.keys(targets).join(', ')}`);
  await build({
    entryPoints: [path.join(root, target.entry)],
    outfile: path.join(root, target.out),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: target.external,
    // The CommonJS packages compiled in call require (for Node's own modules among others).
    banner: { js: "import { createRequire as createRequireOfBundle } from 'node:module'; const require = createRequireOfBundle(import.meta.url);" },
    sourcemap: true,
    logLevel: 'warning',
  });
}
