/**
 * Fails when a module of the contract, the API, the agent or the console imports itself through others.
 * Every relative `import`, `export … from` and `import()` counts, lazy ones included; `import type` does not, since
 * TypeScript erases it and it fixes no load order.
 * Run: `npx tsx scripts/import-cycles.ts` (part of `npm test`).
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOTS = ['packages/contract/src', 'apps/api/src', 'apps/agent/src', 'apps/web/src'];
const EXTENSIONS = ['.ts', '.tsx', '/index.ts', '/index.tsx'];

const sourcesUnder = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourcesUnder(full);
    return /\.tsx?$/.test(e.name) && !/\.d\.ts$/.test(e.name) ? [full] : [];
  });

/** A specifier's file, when it names a source of the tree. */
function resolve(from: string, specifier: string) {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier.replace(/\.js$/, ''));
  for (const candidate of [base, ...EXTENSIONS.map((x) => base + x)]) if (/\.tsx?$/.test(candidate) && fs.existsSync(candidate)) return candidate;
  return undefined;
}

/** The specifiers a file loads at run time. */
function runtimeImports(file: string) {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause?.isTypeOnly ||
        (clause && !clause.name && clause.namedBindings && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.length > 0 && clause.namedBindings.elements.every((e) => e.isTypeOnly));
      if (!typeOnly) found.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      if (!node.isTypeOnly) found.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The strongly connected components of more than one file (Tarjan), each a set of files that import one another. */
function cycles(graph: Map<string, string[]>) {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return found;
}

/** One shortest way round a component, from its first file back to it. */
function loopOf(graph: Map<string, string[]>, component: string[]) {
  const inside = new Set(component);
  const start = component[0];
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!inside.has(w)) continue;
      if (w === start) {
        const loop = [start];
        for (let x = v; x !== start; x = previous.get(x)!) loop.splice(1, 0, x);
        return [...loop, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return component;
}

const root = path.resolve(import.meta.dirname, '..');
const graph = new Map<string, string[]>();
for (const dir of ROOTS) {
  for (const file of sourcesUnder(path.join(root, dir))) {
    graph.set(file, [...new Set(runtimeImports(file).flatMap((s) => resolve(file, s) ?? []))]);
  }
}
const found = cycles(graph);
const rel = (f: string) => path.relative(root, f);
if (found.length) {
  for (const component of found) {
    console.error(`import cycle among ${component.length} files:\n  ${loopOf(graph, component).map(rel).join('\n  → ')}`);
    if (component.length > loopOf(graph, component).length - 1) console.error(`  (and ${component.map(rel).join(', ')})`);
  }
  console.error(`${found.length} import cycle(s) in ${graph.size} files`);
  process.exit(1);
}
console.log(`no import cycles in ${graph.size} files`);
