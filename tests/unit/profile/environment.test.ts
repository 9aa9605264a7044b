/**
 * One typed module reads the suite's environment (profile/run-settings.ts), and docs/environment.md's table
 * "Environment variables" lists each variable once. These tests fail when code outside that module
 * reads process.env, when code or a CI template names a PAYMENTS_* variable the table does not list,
 * when the table lists a variable nothing reads, and when the reference reads a REF_* knob its own
 * README does not list (or lists one it does not read).
 * Run: node --import tsx --test tests/unit/profile/environment.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { root, sourceFiles } from '../support/import-graph';
import { declaredSecretVariables, listProfileNames, loadProfile } from '../../../profile/profile';

const SETTINGS_MODULE = 'profile/run-settings.ts';
const CI_TEMPLATES = ['.github/workflows/nightly.yml', '.gitlab-ci.yml'];
const read = (file: string): string => readFileSync(path.join(root, file), 'utf8');

/**
 * Files another program loads on its own, before any TypeScript (Allure's config, the bench's probe
 * preloaded into every process of a run) or before any test (npm test's key pool, preloaded into the
 * unit tests' processes): they read their variables themselves.
 */
const STANDALONE = ['allurerc.mjs', 'tools/bench/probe.cjs', 'tests/unit/support/key-pool.ts'];
/** The suite's code: everything but the reference (a program of its own) and the harness's unit tests. */
const suiteFiles = [
  ...sourceFiles().filter((f) => !f.startsWith('reference/') && !f.startsWith('tests/unit/')),
  ...STANDALONE,
];

const parse = (file: string): ts.SourceFile =>
  ts.createSourceFile(
    file,
    read(file),
    ts.ScriptTarget.Latest,
    true,
    /\.[mc]js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS,
  );

function walk(node: ts.Node, visit: (node: ts.Node) => void): void {
  visit(node);
  ts.forEachChild(node, (child) => walk(child, visit));
}

const isProcessEnv = (node: ts.Node): boolean =>
  ts.isPropertyAccessExpression(node) &&
  node.name.text === 'env' &&
  ts.isIdentifier(node.expression) &&
  node.expression.text === 'process';
const isAssigned = (node: ts.Node): boolean =>
  ts.isBinaryExpression(node.parent) &&
  node.parent.left === node &&
  node.parent.operatorToken.kind === ts.SyntaxKind.EqualsToken;

/** `process.env.X` and `process.env[x]` that are read (an assignment sets a variable for child processes). */
function processEnvReads(file: string): string[] {
  const found: string[] = [];
  const source = parse(file);
  walk(source, (node) => {
    if (
      (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) &&
      isProcessEnv(node.expression) &&
      !isAssigned(node)
    ) {
      found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${node.getText()}`);
    }
  });
  return found;
}

/**
 * Variable names a file touches: `x.NAME`, `x['NAME']`, `{ NAME: … }`, string literals that are a whole
 * variable name, and names built in a template (`PAYMENTS_ONBOARDED_${…}` as `PAYMENTS_ONBOARDED_<…>`).
 */
function variableNames(file: string, pattern: RegExp): Set<string> {
  const found = new Set<string>();
  walk(parse(file), (node) => {
    if (ts.isTemplateExpression(node) && pattern.test(`${node.head.text}X`)) found.add(`${node.head.text}<…>`);
    else if (ts.isPropertyAccessExpression(node) && pattern.test(node.name.text)) found.add(node.name.text);
    else if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && pattern.test(node.text))
      found.add(node.text);
    else if (
      ts.isPropertyAssignment(node) &&
      (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name)) &&
      pattern.test(node.name.text)
    )
      found.add(node.name.text);
  });
  return found;
}

/** The variables of a README table: the code spans of each row's first cell, under the given heading. */
function tableVariables(readme: string, heading: string): string[] {
  const start = readme.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, `no section "${heading}"`);
  const section = readme.slice(start + heading.length + 2).split(/\n#{1,2} /)[0]!;
  const rows = section.split('\n').filter((l) => l.startsWith('| `'));
  return rows.flatMap((row) => [...row.split('|')[1]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!));
}

// The page's title is its first line: the table is under it.
const suiteTable = tableVariables(`\n${read('docs/environment.md')}`, '# Environment variables');
/** `REF_PORT_<server>` stands for every name with that prefix. */
const listed = (name: string): boolean =>
  suiteTable.some((row) => row === name || (row.includes('<') && name.startsWith(row.slice(0, row.indexOf('<')))));
const profileSecrets = new Set(listProfileNames().flatMap((name) => declaredSecretVariables(loadProfile(name))));

test('only profile/run-settings.ts reads process.env in the suite (others get a typed setting from it)', () => {
  const reads = suiteFiles.filter((f) => f !== SETTINGS_MODULE && !STANDALONE.includes(f)).flatMap(processEnvReads);
  assert.deepEqual(reads, [], `read the variable through profile/run-settings.ts instead:\n  ${reads.join('\n  ')}`);
});

test('every PAYMENTS_* variable the code or a CI template names is in docs/environment.md', () => {
  const named = new Map<string, string>();
  for (const file of suiteFiles)
    for (const name of variableNames(file, /^PAYMENTS_[A-Z0-9_]+$/)) if (!named.has(name)) named.set(name, file);
  for (const file of CI_TEMPLATES)
    for (const m of read(file).matchAll(/\bPAYMENTS_[A-Z0-9_]+\b/g)) if (!named.has(m[0])) named.set(m[0], file);
  const missing = [...named]
    .filter(([name]) => !listed(name) && !profileSecrets.has(name))
    .map(([name, file]) => `${name} (${file})`);
  assert.deepEqual(missing, [], `not in docs/environment.md's table: ${missing.join(', ')}`);
});

test('every variable docs/environment.md lists is one profile/run-settings.ts (or a standalone file) reads', () => {
  const variable = /^[A-Z][A-Z0-9_]*[A-Z0-9]$/; // REF_ alone is a prefix, not a variable
  // The standalone files also set a variable for their host (allurerc.mjs: ALLURE_NO_ANALYTICS): only the suite's own count there.
  const reads = new Set([
    ...variableNames(SETTINGS_MODULE, variable),
    ...STANDALONE.flatMap((f) => [...variableNames(f, /^PAYMENTS_[A-Z0-9_]+$/)]),
  ]);
  // A pattern row (`REF_PORT_<server>`) is a name built in code: its prefix opens a template literal somewhere in the suite.
  const templates = suiteFiles.map(read).join('\n');
  const stale = suiteTable.filter((name) =>
    name.includes('<') ? !templates.includes(`\`${name.slice(0, name.indexOf('<'))}`) : !reads.has(name),
  );
  assert.deepEqual(stale, [], `docs/environment.md lists variables nothing reads: ${stale.join(', ')}`);
  const unlisted = [...reads].filter((name) => !listed(name));
  assert.deepEqual(unlisted, [], `variables read but not in docs/environment.md: ${unlisted.join(', ')}`);
});

test('the reference reads exactly the REF_* knobs reference/README.md lists', () => {
  const referenceFiles = readdirSync(path.join(root, 'reference'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.posix.join('reference', f.split(path.sep).join('/')));
  const reads = new Set(referenceFiles.flatMap((f) => [...variableNames(f, /^REF_[A-Z0-9_]+$/)]));
  const table = tableVariables(read('reference/README.md'), '## Configuration (environment variables)');
  assert.deepEqual(
    [...reads].filter((n) => !table.includes(n)).sort(),
    [],
    'read by the reference but not in reference/README.md',
  );
  assert.deepEqual(table.filter((n) => !reads.has(n)).sort(), [], 'in reference/README.md but read nowhere');
});
