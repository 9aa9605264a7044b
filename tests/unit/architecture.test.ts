/**
 * The house rules of the layout, checked on the import graph of every .ts file
 * (tests/unit/support/import-graph.ts). The suite's folders are layers, each with one job, and
 * arrows point down the list only:
 *   profile → transport → messages → record → ledger → checks → client → cases → engines → arrange → fixtures → runner
 * read right to left: runner (config-time code, reporters) may use everything below it, profile (what
 * a target chose, the run's settings) nothing. Specs (tests/) use any layer but the runner; scripts (the commands) use
 * every layer, and tools (the bench's machinery) serve only the scripts; tests/unit tests anything. The reference is an independent program that imports
 * nothing of the suite, and the suite nothing of it. No import cycle exists anywhere. Every layer below
 * the fixtures imports no Playwright: what checks and the client need of a test runner is their seam
 * (checks/host.ts, client/context.ts), which the fixtures install. A failure names the file and the
 * import that breaks the rule.
 * Run: node --import tsx --test tests/unit/architecture.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { findCycles, importGraph, importSpecifiers, root } from './support/import-graph';

/** The layer of a file: its top folder; tests/unit is a layer of its own (it may test anything). */
function layerOf(file: string): string {
  if (file.startsWith('tests/unit/')) return 'tests/unit';
  const top = file.split('/')[0]!;
  return file.includes('/') ? top : '(root)';
}

/** The suite's layers, lowest first, with the one job each holds (docs/architecture.md). */
const LAYERS = [
  ['profile', "the profile: what a target chose where the spec is silent, and the run's settings"],
  ['transport', 'HTTP, JWS and keys, redaction, the transcript'],
  ['messages', "the spec's messages: builders, schemas, readers of answers, amounts, JSON paths, status codes"],
  ['record', "the run's record: run folder, replay, reports, counts, history file, spec pages"],
  ['ledger', 'the rule ledger: rules, operations, capabilities, outcomes'],
  ['checks', 'the oracles: Verdicts and the named checks'],
  ['client', 'the API client and the flows'],
  ['cases', 'data-only tables of valid and invalid messages'],
  ['engines', 'the discovery and exploration engines'],
  [
    'arrange',
    "what tests take, arranged before they judge: the run's plan, observations, the settled-payment pool, the operation drivers",
  ],
  ['fixtures', 'Playwright wiring'],
  ['runner', 'config-time code: projects, global setup, reporters'],
] as const;
const rank = new Map<string, number>(LAYERS.map(([layer], i) => [layer, i]));

/** Everything a layer must never import, and why. */
function forbidden(from: string, to: string): string | undefined {
  const INDEPENDENT = 'the suite and the reference are independent readings of the spec';
  if (from === to) return undefined;
  if (from === 'reference') return `${INDEPENDENT}: the reference imports nothing of the suite`;
  if (to === 'reference')
    return from === 'scripts' || from === 'tools' || from === 'tests/unit' ? undefined : INDEPENDENT;
  if (to === 'tests' || to === 'tests/unit') return from === 'tests/unit' ? undefined : 'nothing imports the specs';
  if (to === 'scripts')
    // The bench runs the suite the way its commands do (scripts/lib/run-playwright.ts).
    return from === 'tests/unit' || from === 'tools'
      ? undefined
      : 'the commands are entry points: what a layer needs of them belongs in that layer';
  if (to === 'tools')
    return from === 'scripts' || from === 'tests/unit'
      ? undefined
      : 'the tools (the bench) serve the commands that measure the suite, not the suite';
  if (from === 'tests' && to === 'runner') return 'specs use fixtures; config-time code stays in the runner';
  const a = rank.get(from);
  const b = rank.get(to);
  if (a !== undefined && b !== undefined && b > a)
    return `${from}/ (${LAYERS[a]![1]}) sits below ${to}/ (${LAYERS[b]![1]}): arrows point ${LAYERS.map(([l]) => l)
      .reverse()
      .join(' → ')}`;
  return undefined;
}

/**
 * Layers whose files import no Playwright (`@playwright/test` or any other part of it): every layer
 * below the fixtures, which install the runner's host (checks/host.ts, client/context.ts).
 */
const WITHOUT_PLAYWRIGHT = [
  'profile',
  'transport',
  'messages',
  'record',
  'ledger',
  'checks',
  'client',
  'cases',
  'engines',
  'arrange',
] as const;
const isPlaywright = (specifier: string): boolean =>
  specifier === 'playwright' || specifier.startsWith('@playwright/') || specifier.startsWith('playwright/');

const graph = importGraph();

test('the import graph is read (sanity: known arrows are found)', () => {
  assert.ok(graph.files.length > 100, `only ${graph.files.length} .ts files found`);
  const has = (from: string, to: string): boolean => graph.edges.some((e) => e.from === from && e.to === to);
  assert.ok(has('fixtures/exploring.ts', 'fixtures/reporting.ts'), 'a static import');
  assert.ok(has('fixtures/observing.ts', 'arrange/observation-catalogue.ts'), 'a dynamic import()');
  assert.deepEqual(
    importSpecifiers(
      'x.ts',
      "import a from './a'; import type { B } from './b'; export * from './c'; const d = require('./d'); void import('./e'); type F = typeof import('./f');",
    ),
    ['./a', './b', './c', './d', './e', './f'],
  );
});

test('every relative import names a file of the repository', () => {
  assert.deepEqual(
    graph.unresolved.map((e) => `${e.from} → ${e.specifier}`),
    [],
  );
});

test('no import points against the arrows (runner → fixtures → arrange → engines → cases → client → checks → ledger → record → messages → transport → profile; the reference alone)', () => {
  const violations = graph.edges.flatMap((e) => {
    const why = forbidden(layerOf(e.from), layerOf(e.to));
    return why ? [`${e.from} → '${e.specifier}' (${e.to}): ${why}`] : [];
  });
  assert.deepEqual(violations, [], `imports against the arrows:\n  ${violations.join('\n  ')}`);
});

test(`no Playwright import in ${WITHOUT_PLAYWRIGHT.join('/, ')}/ (the runner is reached through the host seam, checks/host.ts and client/context.ts)`, () => {
  const found = graph.files
    .filter((file) => (WITHOUT_PLAYWRIGHT as readonly string[]).includes(layerOf(file)))
    .flatMap((file) =>
      importSpecifiers(file, readFileSync(path.join(root, file), 'utf8'))
        .filter(isPlaywright)
        .map((specifier) => `${file} → '${specifier}'`),
    );
  assert.deepEqual(
    found,
    [],
    `Playwright imported where discovery and scripts run without it:\n  ${found.join('\n  ')}`,
  );
});

test('below the fixtures every layer is checked for Playwright: only the fixtures, the runner, the specs, the commands and tests/unit import it', () => {
  const below = LAYERS.slice(0, rank.get('fixtures')).map(([layer]) => layer);
  assert.deepEqual([...WITHOUT_PLAYWRIGHT], below);
  const importers = new Set(
    graph.files
      .filter((file) => importSpecifiers(file, readFileSync(path.join(root, file), 'utf8')).some(isPlaywright))
      .map(layerOf),
  );
  const allowed = new Set(['fixtures', 'runner', 'tests', 'scripts', 'tools', 'tests/unit', '(root)']);
  assert.deepEqual(
    [...importers].filter((layer) => !allowed.has(layer)),
    [],
  );
});

test('the Playwright check sees an import in any form', () => {
  const specifiers = importSpecifiers(
    'x.ts',
    "import { test } from '@playwright/test'; import type { Reporter } from '@playwright/test/reporter'; import { x } from './playwright-report';",
  );
  assert.deepEqual(specifiers.filter(isPlaywright), ['@playwright/test', '@playwright/test/reporter']);
});

test('every top folder of the suite is a known layer', () => {
  const tops = new Set(graph.files.filter((f) => f.includes('/')).map((f) => f.split('/')[0]!));
  const known = new Set<string>([...rank.keys(), 'tests', 'scripts', 'tools', 'reference', 'environments']);
  assert.deepEqual(
    [...tops].filter((t) => !known.has(t)),
    [],
  );
});

test('no import cycle', () => {
  const cycles = findCycles(graph.edges).map((c) => c.join(' → '));
  assert.deepEqual(cycles, [], `import cycles:\n  ${cycles.join('\n  ')}`);
});

test('the cycle finder reports a cycle with its files in order', () => {
  const edges = [
    { from: 'a.ts', to: 'b.ts' },
    { from: 'b.ts', to: 'c.ts' },
    { from: 'c.ts', to: 'a.ts' },
    { from: 'c.ts', to: 'd.ts' },
    { from: 'e.ts', to: 'e.ts' },
  ];
  assert.deepEqual(findCycles(edges), [
    ['a.ts', 'b.ts', 'c.ts', 'a.ts'],
    ['e.ts', 'e.ts'],
  ]);
});
