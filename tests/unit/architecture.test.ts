/**
 * The house rules of the layout, checked on the import graph of every .ts file
 * (tests/unit/support/import-graph.ts): arrows point tests → fixtures → helpers and never back,
 * scripts may use fixtures and helpers, the reference is an independent program that imports nothing
 * of the suite, and no import cycle exists anywhere. A failure names the file and the import that breaks the rule.
 * Run: node --import tsx --test tests/unit/architecture.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findCycles, importGraph, importSpecifiers } from './support/import-graph';

/** The layer of a file: its top folder; tests/unit is a layer of its own (it may test anything). */
function layerOf(file: string): string {
  if (file.startsWith('tests/unit/')) return 'tests/unit';
  const top = file.split('/')[0]!;
  return file.includes('/') ? top : '(root)';
}

/**
 * The arrows the house rules forbid: layer → layers it must never import. The suite's own reading of
 * the spec (helpers, fixtures, specs) never borrows the reference's either: two readings that share
 * code would agree for the wrong reason. tests/unit tests everything and scripts run everything.
 */
const INDEPENDENT = 'the suite and the reference are independent readings of the spec';
const FORBIDDEN: Readonly<Record<string, readonly { layer: string; why: string }[]>> = {
  reference: ['tests', 'tests/unit', 'fixtures', 'helpers', 'scripts', '(root)'].map((layer) => ({ layer, why: `${INDEPENDENT}: the reference imports nothing of the suite` })),
  helpers: [
    ...['fixtures', 'tests', 'tests/unit', 'scripts'].map((layer) => ({ layer, why: 'helpers/ are pure building blocks: the arrows point tests → fixtures → helpers, never back' })),
    { layer: 'reference', why: INDEPENDENT },
  ],
  fixtures: [
    ...['tests', 'tests/unit', 'scripts'].map((layer) => ({ layer, why: 'fixtures/ serve the specs and the runners, never the other way round' })),
    { layer: 'reference', why: INDEPENDENT },
  ],
  tests: [
    { layer: 'scripts', why: 'specs use fixtures/ and helpers/; runner code a spec needs belongs there' },
    { layer: 'reference', why: INDEPENDENT },
  ],
  scripts: ['tests', 'tests/unit'].map((layer) => ({ layer, why: 'runners may use fixtures/ and helpers/, never the specs' })),
};

const graph = importGraph();

test('the import graph is read (sanity: known arrows are found)', () => {
  assert.ok(graph.files.length > 100, `only ${graph.files.length} .ts files found`);
  const has = (from: string, to: string): boolean => graph.edges.some((e) => e.from === from && e.to === to);
  assert.ok(has('fixtures/exploring.ts', 'fixtures/reporting.ts'), 'a static import');
  assert.ok(has('fixtures/observing.ts', 'fixtures/observation-catalogue.ts'), 'a dynamic import()');
  assert.deepEqual(
    importSpecifiers('x.ts', "import a from './a'; import type { B } from './b'; export * from './c'; const d = require('./d'); void import('./e'); type F = typeof import('./f');"),
    ['./a', './b', './c', './d', './e', './f'],
  );
});

test('every relative import names a file of the repository', () => {
  assert.deepEqual(graph.unresolved.map((e) => `${e.from} → ${e.specifier}`), []);
});

test('no import points against the arrows (tests → fixtures → helpers; scripts → fixtures, helpers; the reference alone)', () => {
  const violations = graph.edges.flatMap((e) => {
    const rule = FORBIDDEN[layerOf(e.from)]?.find((r) => r.layer === layerOf(e.to));
    return rule ? [`${e.from} → '${e.specifier}' (${e.to}): ${rule.why}`] : [];
  });
  assert.deepEqual(violations, [], `imports against the arrows:\n  ${violations.join('\n  ')}`);
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
  assert.deepEqual(findCycles(edges), [['a.ts', 'b.ts', 'c.ts', 'a.ts'], ['e.ts', 'e.ts']]);
});
