// Compiles the API and the agent once into plain JavaScript, as the console is built: each into one ES module file
// (apps/api/dist/server.js, apps/agent/dist/main.js) holding its code, the workspace packages it imports and the
// JavaScript of its dependencies, so that a start reads one file instead of resolving and compiling hundreds.
// Packages with a native addon (and the optional ones that are not installed) load from node_modules.
// Usage: node scripts/build-server.mjs [api] [agent]   (both when none is named); `bundle` builds another entry so.
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

/**
 * The packages left out of a bundle are loaded with require, not import: importing a CommonJS package from an ES
 * module has Node scan its sources for their export names first (for DuckDB's, a few hundred milliseconds of a start).
 * Each such import becomes a CommonJS stand-in that requires the package.
 */
const requireExternals = (names) => {
  const filter = new RegExp(`^(${names.map((n) => n.replace(/[/.]/g, '\\$&')).join('|')})$`);
  return {
    name: 'require-externals',
    setup(build) {
      build.onResolve({ filter }, (args) => (args.namespace === 'required' ? { path: args.path, external: true } : { path: args.path, namespace: 'required' }));
      build.onLoad({ filter: /.*/, namespace: 'required' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
    },
  };
};

/** Bundles one entry (TypeScript) into one ES module file, the packages named in `external` loaded from node_modules. */
export const bundle = ({ entry, out, external }) =>
  build({
    entryPoints: [path.resolve(root, entry)],
    outfile: path.resolve(root, out),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external,
    plugins: external.length ? [requireExternals(external)] : [],
    // The CommonJS packages compiled in call require (for Node's own modules among others).
    banner: { js: "import { createRequire as createRequireOfBundle } from 'node:module'; const require = createRequireOfBundle(import.meta.url);" },
    // What a process holds of its own code: the source text as one-byte characters (ASCII output, comments gone, the
    // packages' licence comments in <out>.LEGAL.txt beside it) and a source map without the sources themselves, which
    // --enable-source-maps would otherwise parse and keep (for the API, 85 MB less at start).
    minifyWhitespace: true,
    charset: 'ascii',
    legalComments: 'external',
    sourcemap: true,
    sourcesContent: false,
    logLevel: 'warning',
  });

/** The packages an API bundle loads from node_modules. */
export const API_EXTERNAL = targets.api.external;

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const names = process.argv.slice(2);
  for (const name of names.length ? names : Object.keys(targets)) {
    const target = targets[name];
    if (!target) throw new Error(`unknown target ${name}: ${Object.keys(targets).join(', ')}`);
    await bundle(target);
  }
}
