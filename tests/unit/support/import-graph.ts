/**
 * The repository's import graph, read with TypeScript's own parser: every .ts file, the module
 * specifiers it imports in any form (static imports and re-exports, `import type`, `require()`,
 * `import()`, `typeof import()`), the repository file each relative one names, and the cycles.
 * Used by tests/unit/architecture.test.ts.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const root = path.resolve(__dirname, '..', '..', '..');
const SKIPPED_FOLDERS = new Set(['node_modules', 'reports', '.git', 'test-results']);

/** Every .ts file of the repository, relative to its root, with forward slashes. */
export function sourceFiles(dir = root): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    if (SKIPPED_FOLDERS.has(entry)) continue;
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full));
    else if (entry.endsWith('.ts')) out.push(path.relative(root, full).split(path.sep).join('/'));
  }
  return out.sort();
}

/** The module specifiers a file imports, in any form the code can take. */
export function importSpecifiers(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier.text);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      found.push(node.moduleReference.expression.text);
    } else if (ts.isCallExpression(node) && node.arguments.length >= 1 && ts.isStringLiteralLike(node.arguments[0]!)) {
      const dynamicImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const requireCall = ts.isIdentifier(node.expression) && node.expression.text === 'require';
      if (dynamicImport || requireCall) found.push(node.arguments[0].text);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The repository file a relative specifier names (with the extensions the bundler resolution tries), else undefined. */
function resolveImport(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  for (const candidate of [base, `${base}.ts`, `${base}/index.ts`]) {
    const full = path.join(root, candidate);
    if (existsSync(full) && statSync(full).isFile()) return candidate;
  }
  return undefined;
}

export interface Edge {
  from: string;
  to: string;
  specifier: string;
}

export function importGraph(): { files: string[]; edges: Edge[]; unresolved: Edge[] } {
  const files = sourceFiles();
  const edges: Edge[] = [];
  const unresolved: Edge[] = [];
  for (const from of files) {
    for (const specifier of importSpecifiers(from, readFileSync(path.join(root, from), 'utf8'))) {
      const to = resolveImport(from, specifier);
      if (to) edges.push({ from, to, specifier });
      else if (specifier.startsWith('.')) unresolved.push({ from, to: '', specifier });
    }
  }
  return { files, edges, unresolved };
}

/** Every import cycle, once each, as the files in import order (the first file repeated at the end). */
export function findCycles(edges: readonly Pick<Edge, 'from' | 'to'>[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.from, [...new Set([...(next.get(e.from) ?? []), e.to])].sort());
  // Tarjan's strongly connected components: a component of two or more files (or a file importing itself) holds a cycle.
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (v: string): void => {
    indices.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!indices.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indices.get(w)!));
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      components.push(component);
    }
  };
  for (const v of [...next.keys()].sort()) if (!indices.has(v)) connect(v);
  return components
    .filter((c) => c.length > 1 || (next.get(c[0]!) ?? []).includes(c[0]!))
    .map((component) => shortestCycle(component.sort()[0]!, new Set(component), next));
}

/** The shortest path from `start` back to itself inside one component (breadth first). */
function shortestCycle(start: string, within: ReadonlySet<string>, next: ReadonlyMap<string, string[]>): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of next.get(v) ?? []) {
      if (!within.has(w)) continue;
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(previous.get(path[0]!)!);
        return [...path, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start];
}
