/**
 * A flow reads top to bottom: a spec names the observation whose requests it judges
 * by the symbol imported from arrange/observation-catalogue.ts (go to definition leads to what it
 * sends; a typo is a compile error), and declares in its details (`takes({ observation })`) every
 * observation its body uses. The run checks the declaration too (arrange/observations.ts); this file
 * checks it without running anything. Run with `node --import tsx --test tests/unit/runner/observation-links.test.ts`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as observationCatalogue from '../../../arrange/observation-catalogue';
import { isObservation, observationsByName } from '../../../arrange/observations';

const TESTS = path.resolve(__dirname, '..', '..');
const CATALOGUE_IMPORT = /import\s*\{([^}]*)\}\s*from\s*'[./]*arrange\/observation-catalogue'/;

function specFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? e.name === 'unit'
        ? []
        : specFiles(path.join(dir, e.name))
      : e.name.endsWith('.spec.ts')
        ? [path.join(dir, e.name)]
        : [],
  );
}

/** Each test of a spec: its details (up to its body) and its body (up to the next test). */
function testsOf(source: string): { title: string; details: string; body: string }[] {
  // A title written out, or one a loop computes (test(c.title, …)): each starts a test of its own.
  const starts = [...source.matchAll(/\btest\(\s*(?:(['`])(.*?)\1|([\w.]+)),/g)];
  return starts.map((m, i) => {
    const text = source.slice(m.index, starts[i + 1]?.index ?? source.length);
    const bodyAt = text.search(/async \(\{/);
    return { title: m[2] ?? m[3]!, details: text.slice(0, bodyAt), body: text.slice(bodyAt) };
  });
}

/** The catalogue's symbols a piece of code names, with their property paths (tokenExpiry.paymentStatus). */
const namedIn = (code: string, symbols: string[]): Set<string> =>
  new Set(symbols.flatMap((s) => [...code.matchAll(new RegExp(`\\b${s}(?:\\.\\w+)*`, 'g'))].map((m) => m[0])));

const specs = specFiles(TESTS).map((file) => ({
  file: path.relative(TESTS, file),
  source: readFileSync(file, 'utf8'),
}));

test('every observation a spec takes is named by a symbol, never by a string', () => {
  const byString = specs
    .filter((s) => /observation:\s*['"`]/.test(s.source) || /observe\(\s*['"`]/.test(s.source))
    .map((s) => s.file);
  assert.deepEqual(byString, []);
});

test('every observation a test body uses is declared in that test’s takes()', () => {
  const undeclared: string[] = [];
  let linked = 0;
  for (const { file, source } of specs) {
    const imported =
      CATALOGUE_IMPORT.exec(source)?.[1]
        ?.split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '' && !s.startsWith('type ')) ?? [];
    if (imported.length === 0) continue;
    for (const t of testsOf(source)) {
      const declared = namedIn(t.details, imported);
      for (const used of namedIn(t.body, imported)) {
        linked++;
        if (!declared.has(used))
          undeclared.push(`${file} › ${t.title}: uses ${used} without ...takes({ observation: ${used} })`);
      }
    }
  }
  assert.deepEqual(undeclared, []);
  assert.ok(linked >= 14, `the observation-taking tests were found (${linked})`);
});

test('every observation the catalogue exports, however nested, is one a worker can start up front by name', async () => {
  const catalogue = observationCatalogue as Record<string, unknown>;
  // A walk of its own, not observationsByName's: the refund chains, a Map, were once missed, so their
  // tests waited two settlements each after the worker had been idle for them.
  const names: string[] = [];
  const walk = (value: unknown, depth: number): void => {
    if (isObservation(value)) names.push(value.name);
    else if (depth > 0 && value instanceof Map) for (const v of value.values()) walk(v, depth - 1);
    else if (depth > 0 && typeof value === 'object' && value !== null)
      for (const v of Object.values(value)) walk(v, depth - 1);
  };
  walk(catalogue, 2);
  const byName = observationsByName(catalogue);
  assert.deepEqual(
    names.filter((n) => !byName.has(n)),
    [],
  );
  assert.ok(
    names.some((n) => n.startsWith('a refund chain')),
    'the refund chains are among them',
  );
});
