/**
 * `npm run compare -- <runA> <runB> [--transcript-a <jsonl|dir>] [--transcript-b <jsonl|dir>] [--out <dir>]`
 *
 * Compares two runs of the suite. A run is `last` or `previous` (the newest finished runs under
 * reports/runs/, `last~2` further back), a run id, a run folder (reports/runs/<stamp>-<runId>/ with
 * results.json and transcripts/), a Playwright JSON report file, or a certification bundle folder
 * (summary.json + transcript.jsonl). An input that names none of these stops the command with one
 * sentence listing the runs there are. Reports:
 *   - tests newly failing / newly passing / otherwise changed / added / removed;
 *   - HTTP status changes per (test, request label), from the transcripts;
 *   - response schema drift: per operation (method + path with the version segment and ids
 *     normalised, + status), the JSON field paths and their types; fields added, removed or retyped
 *     (the members the suite's own probes send, served back by a target, are not the target's schema).
 * The project name is normalised out of test titles, so a --project=local run compares with a
 * --project=local-flow-versions run. Prints text, writes reports/compare/index.html, and prints
 * "no differences" when there are none. Exit 0 after a comparison (differences are information;
 * --fail-on-diff makes them exit 1), 2 when an input cannot be read.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { testRecords, type Outcome, type PlaywrightJsonReport, type TestRecord } from './lib/run-records';
import { availableRunsText, passedOver, resolveRun } from '../record/run-folder';
import { suiteEnvironment } from '../profile/run-settings';
import { PROBE_MEMBER_NAMES } from '../cases/robustness-cases';

// ── reading runs ─────────────────────────────────────────────────────────────────────────────────

export interface TranscriptRecord {
  project?: string;
  test?: string;
  label?: string;
  startedAt?: string;
  request?: { method?: string; url?: string };
  response?: { status?: number; headers?: Record<string, string>; body?: string };
}

export interface RunData {
  source: string;
  projects: string[];
  tests: TestRecord[];
  /** Undefined when the run has no transcript (then statuses and schemas are not compared). */
  transcript?: TranscriptRecord[];
}

function readJsonl(file: string): TranscriptRecord[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as TranscriptRecord);
}

/** A transcript given as one JSONL file or a folder of them. */
export function readTranscript(input: string): TranscriptRecord[] {
  if (!existsSync(input)) throw new Error(`transcript ${input} not found`);
  if (!statSync(input).isDirectory()) return readJsonl(input);
  return readdirSync(input)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .flatMap((f) => readJsonl(path.join(input, f)));
}

const isPlaywrightReport = (json: unknown): json is PlaywrightJsonReport =>
  Boolean(json && typeof json === 'object' && Array.isArray((json as { suites?: unknown }).suites));

export function loadRun(input: string, transcriptOverride?: string): RunData {
  if (!existsSync(input))
    throw new Error(`${input} not found: give a Playwright JSON report or a certification bundle folder`);
  let tests: TestRecord[] | undefined;
  let transcriptPath = transcriptOverride;
  if (statSync(input).isDirectory()) {
    const summary = path.join(input, 'summary.json');
    if (existsSync(summary)) {
      const json = JSON.parse(readFileSync(summary, 'utf8')) as { tests?: TestRecord[] };
      if (!Array.isArray(json.tests)) throw new Error(`${summary} has no tests list: not a certification bundle`);
      tests = json.tests;
    } else {
      for (const f of readdirSync(input)
        .filter((x) => x.endsWith('.json'))
        .sort()) {
        const json = JSON.parse(readFileSync(path.join(input, f), 'utf8')) as unknown;
        if (isPlaywrightReport(json)) {
          tests = testRecords(json);
          break;
        }
      }
    }
    if (!tests)
      throw new Error(`${input} holds neither summary.json (certification bundle) nor a Playwright JSON report`);
    if (!transcriptPath) {
      const candidates = [path.join(input, 'transcript.jsonl'), path.join(input, 'transcripts')];
      transcriptPath = candidates.find((c) => existsSync(c));
    }
  } else {
    const json = JSON.parse(readFileSync(input, 'utf8')) as unknown;
    if (isPlaywrightReport(json)) tests = testRecords(json);
    else if (json && typeof json === 'object' && Array.isArray((json as { tests?: unknown }).tests))
      tests = (json as { tests: TestRecord[] }).tests;
    else throw new Error(`${input} is not a Playwright JSON report (no "suites") nor a bundle summary.json`);
  }
  const transcript = transcriptPath ? readTranscript(transcriptPath) : undefined;
  return {
    source: input,
    projects: [...new Set(tests.map((t) => t.project))].sort(),
    tests,
    ...(transcript ? { transcript } : {}),
  };
}

// ── normalisation ────────────────────────────────────────────────────────────────────────────────

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A test's identity without its project: the leading project segment goes, and so do bracketed
 * mentions such as "[local]" or "(local)". Bare words are left alone: "local" is also an English
 * word (a "local instrument"), and rewriting it would invent differences.
 */
export function normaliseTitle(title: string, project: string | undefined): string {
  let segments = title.split(' › ');
  if (project && segments[0] === project) segments = segments.slice(1);
  let out = segments.join(' › ');
  if (project) out = out.replace(new RegExp(`([\\[(])${escapeRegExp(project)}([\\])])`, 'g'), '$1<project>$2');
  return out;
}

/** /payments/pacs002/v12/7f3e… → /payments/pacs002/{version}/{id}: what stays the same across versions and data. */
export function normalisePath(url: string): string {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    pathname = url.split('?')[0] ?? url;
  }
  const segments = pathname.split('/');
  const v = segments.findIndex((s) => /^v\d+$/.test(s));
  return segments
    .map((s, i) => {
      if (i === v) return '{version}';
      if (v >= 0 && i > v && s) return '{id}';
      if (/^[0-9a-f]{8}-[0-9a-f]{4}-|^\d{6,}$|^[A-Z]{2,4}\d{10,}$/i.test(s)) return '{id}';
      return s;
    })
    .join('/');
}

type JsonType = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';
const jsonType = (v: unknown): JsonType => (v === null ? 'null' : Array.isArray(v) ? 'array' : (typeof v as JsonType));

/**
 * Field paths of a JSON value with the types seen at each ($ is the root, [] an array element). The
 * suite's own probe members (suiteExtra, __proto__, constructor…, cases/robustness-cases.ts)
 * are left out with all beneath them: a target serving back what a probe sent has not changed its schema.
 */
export function fieldTypes(
  value: unknown,
  into = new Map<string, Set<JsonType>>(),
  at = '$',
): Map<string, Set<JsonType>> {
  const add = (p: string, t: JsonType): void => {
    const set = into.get(p) ?? new Set<JsonType>();
    set.add(t);
    into.set(p, set);
  };
  add(at, jsonType(value));
  if (Array.isArray(value)) for (const item of value) fieldTypes(item, into, `${at}[]`);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) if (!PROBE_MEMBER_NAMES.has(k)) fieldTypes(v, into, `${at}.${k}`);
  return into;
}

export type Schemas = Map<string, Map<string, Set<JsonType>>>;

/** Per operation ("METHOD /normalised/path → status"), the union of field types of its JSON responses. */
export function responseSchemas(transcript: readonly TranscriptRecord[]): Schemas {
  const out: Schemas = new Map();
  for (const r of transcript) {
    const body = r.response?.body;
    if (!body || !/^\s*[[{]/.test(body)) continue;
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      continue; // truncated or not JSON: nothing reliable to say about its shape
    }
    const op = `${r.request?.method ?? '?'} ${normalisePath(r.request?.url ?? '')} → ${r.response?.status ?? '?'}`;
    out.set(op, fieldTypes(json, out.get(op) ?? new Map()));
  }
  return out;
}

/**
 * Per (test, request label), the statuses in the order the test received them, with repeats
 * collapsed: how many times a poll ran before the payment settled is timing, not behaviour.
 */
export function statusesByCall(transcript: readonly TranscriptRecord[]): Map<string, number[]> {
  const ordered = [...transcript].sort((a, b) => String(a.startedAt ?? '').localeCompare(String(b.startedAt ?? '')));
  const out = new Map<string, number[]>();
  for (const r of ordered) {
    const key = `${normaliseTitle(r.test ?? '?', r.project)} ⟶ ${r.label ?? '?'}`;
    const status = r.response?.status ?? 0;
    const seen = out.get(key) ?? [];
    if (seen.at(-1) !== status) seen.push(status);
    out.set(key, seen);
  }
  return out;
}

// ── comparison ───────────────────────────────────────────────────────────────────────────────────

export interface TestChange {
  test: string;
  from?: Outcome;
  to?: Outcome;
  error?: string;
}

export interface SchemaDrift {
  operation: string;
  added: { path: string; types: string }[];
  removed: { path: string; types: string }[];
  retyped: { path: string; from: string; to: string }[];
}

export interface Comparison {
  a: { source: string; projects: string[]; tests: number; exchanges?: number };
  b: { source: string; projects: string[]; tests: number; exchanges?: number };
  newlyFailing: TestChange[];
  newlyPassing: TestChange[];
  otherChanges: TestChange[];
  added: TestChange[];
  removed: TestChange[];
  statusChanges: { call: string; from: number[]; to: number[] }[];
  operationsOnlyInA: string[];
  operationsOnlyInB: string[];
  drift: SchemaDrift[];
  /** Why status codes and schemas were not compared, when they were not. */
  transcriptNote?: string;
}

const typesText = (s: Set<string>): string => [...s].sort().join('|');

function keyedTests(run: RunData): Map<string, TestRecord> {
  const out = new Map<string, TestRecord>();
  for (const t of run.tests) out.set(normaliseTitle(t.title, t.project), t);
  return out;
}

export function compareRuns(a: RunData, b: RunData): Comparison {
  const ta = keyedTests(a);
  const tb = keyedTests(b);
  const c: Comparison = {
    a: {
      source: a.source,
      projects: a.projects,
      tests: a.tests.length,
      ...(a.transcript ? { exchanges: a.transcript.length } : {}),
    },
    b: {
      source: b.source,
      projects: b.projects,
      tests: b.tests.length,
      ...(b.transcript ? { exchanges: b.transcript.length } : {}),
    },
    newlyFailing: [],
    newlyPassing: [],
    otherChanges: [],
    added: [],
    removed: [],
    statusChanges: [],
    operationsOnlyInA: [],
    operationsOnlyInB: [],
    drift: [],
  };
  for (const [key, x] of ta) {
    const y = tb.get(key);
    if (!y) c.removed.push({ test: key, from: x.outcome });
    else if (x.outcome !== y.outcome) {
      const change: TestChange = { test: key, from: x.outcome, to: y.outcome, ...(y.error ? { error: y.error } : {}) };
      if (y.outcome === 'failed') c.newlyFailing.push(change);
      else if (x.outcome === 'failed' && y.outcome === 'passed') c.newlyPassing.push(change);
      else c.otherChanges.push(change);
    }
  }
  for (const [key, y] of tb) if (!ta.has(key)) c.added.push({ test: key, to: y.outcome });

  if (!a.transcript || !b.transcript) {
    c.transcriptNote = `no transcript for ${!a.transcript ? 'A' : 'B'}: HTTP statuses and response schemas not compared (pass --transcript-${!a.transcript ? 'a' : 'b'} or use certification bundles)`;
    return c;
  }
  // Only calls both runs made: which test first fetches the worker's cached token depends on scheduling.
  const sa = statusesByCall(a.transcript);
  const sb = statusesByCall(b.transcript);
  for (const [call, from] of sa) {
    const to = sb.get(call);
    if (to && from.join(',') !== to.join(',')) c.statusChanges.push({ call, from, to });
  }

  const da = responseSchemas(a.transcript);
  const db = responseSchemas(b.transcript);
  c.operationsOnlyInA = [...da.keys()].filter((k) => !db.has(k)).sort();
  c.operationsOnlyInB = [...db.keys()].filter((k) => !da.has(k)).sort();
  for (const [operation, fa] of [...da].sort(([x], [y]) => x.localeCompare(y))) {
    const fb = db.get(operation);
    if (!fb) continue;
    const drift: SchemaDrift = { operation, added: [], removed: [], retyped: [] };
    for (const [p, types] of fa) {
      const other = fb.get(p);
      if (!other) drift.removed.push({ path: p, types: typesText(types) });
      else if (typesText(types) !== typesText(other))
        drift.retyped.push({ path: p, from: typesText(types), to: typesText(other) });
    }
    for (const [p, types] of fb) if (!fa.has(p)) drift.added.push({ path: p, types: typesText(types) });
    if (drift.added.length || drift.removed.length || drift.retyped.length) c.drift.push(drift);
  }
  for (const list of [c.newlyFailing, c.newlyPassing, c.otherChanges, c.added, c.removed])
    list.sort((x, y) => x.test.localeCompare(y.test));
  c.statusChanges.sort((x, y) => x.call.localeCompare(y.call));
  return c;
}

export const hasDifferences = (c: Comparison): boolean =>
  [
    c.newlyFailing,
    c.newlyPassing,
    c.otherChanges,
    c.added,
    c.removed,
    c.statusChanges,
    c.operationsOnlyInA,
    c.operationsOnlyInB,
    c.drift,
  ].some((l) => l.length > 0);

// ── rendering ────────────────────────────────────────────────────────────────────────────────────

export function renderText(c: Comparison): string {
  const lines = [
    `A: ${c.a.source} (${c.a.projects.join(', ') || '?'}; ${c.a.tests} tests${c.a.exchanges !== undefined ? `, ${c.a.exchanges} exchanges` : ''})`,
    `B: ${c.b.source} (${c.b.projects.join(', ') || '?'}; ${c.b.tests} tests${c.b.exchanges !== undefined ? `, ${c.b.exchanges} exchanges` : ''})`,
  ];
  const section = <T>(title: string, items: T[], line: (x: T) => string): void => {
    if (!items.length) return;
    lines.push('', `${title} (${items.length}):`, ...items.map((x) => `  ${line(x)}`));
  };
  section('Newly failing', c.newlyFailing, (t) => `✖ ${t.test} (was ${t.from})${t.error ? `\n      ${t.error}` : ''}`);
  section('Newly passing', c.newlyPassing, (t) => `✔ ${t.test}`);
  section('Other outcome changes', c.otherChanges, (t) => `${t.test}: ${t.from} → ${t.to}`);
  section('Tests added in B', c.added, (t) => `+ ${t.test} (${t.to})`);
  section('Tests removed in B', c.removed, (t) => `- ${t.test} (was ${t.from})`);
  section(
    'HTTP status changes per (test, request)',
    c.statusChanges,
    (s) => `${s.call}: ${s.from.join(',')} → ${s.to.join(',')}`,
  );
  section('Operations answered only in A', c.operationsOnlyInA, (o) => o);
  section('Operations answered only in B', c.operationsOnlyInB, (o) => o);
  section('Response schema drift', c.drift, (d) =>
    [
      d.operation,
      ...d.added.map((f) => `    + ${f.path}: ${f.types}`),
      ...d.removed.map((f) => `    - ${f.path}: ${f.types}`),
      ...d.retyped.map((f) => `    ~ ${f.path}: ${f.from} → ${f.to}`),
    ].join('\n'),
  );
  if (c.transcriptNote) lines.push('', `note: ${c.transcriptNote}`);
  lines.push('', hasDifferences(c) ? 'differences found' : 'no differences');
  return lines.join('\n');
}

const esc = (s: unknown): string => String(s).replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

export function renderHtml(c: Comparison): string {
  const table = (title: string, head: string[], rows: string[][]): string =>
    rows.length
      ? `<h2>${esc(title)} <small>(${rows.length})</small></h2><table><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr>${rows
          .map((r) => `<tr>${r.map((x) => `<td>${esc(x)}</td>`).join('')}</tr>`)
          .join('')}</table>`
      : '';
  const driftRows = c.drift.flatMap((d) => [
    ...d.added.map((f) => [d.operation, 'added', f.path, '', f.types]),
    ...d.removed.map((f) => [d.operation, 'removed', f.path, f.types, '']),
    ...d.retyped.map((f) => [d.operation, 'type changed', f.path, f.from, f.to]),
  ]);
  const body = [
    table(
      'Newly failing',
      ['test', 'was', 'error'],
      c.newlyFailing.map((t) => [t.test, t.from ?? '', t.error ?? '']),
    ),
    table(
      'Newly passing',
      ['test', 'was'],
      c.newlyPassing.map((t) => [t.test, t.from ?? '']),
    ),
    table(
      'Other outcome changes',
      ['test', 'A', 'B'],
      c.otherChanges.map((t) => [t.test, t.from ?? '', t.to ?? '']),
    ),
    table(
      'Tests added in B',
      ['test', 'outcome'],
      c.added.map((t) => [t.test, t.to ?? '']),
    ),
    table(
      'Tests removed in B',
      ['test', 'outcome in A'],
      c.removed.map((t) => [t.test, t.from ?? '']),
    ),
    table(
      'HTTP status changes per (test, request)',
      ['test ⟶ request', 'A', 'B'],
      c.statusChanges.map((s) => [s.call, s.from.join(', '), s.to.join(', ')]),
    ),
    table(
      'Operations answered only in one run',
      ['operation', 'run'],
      [...c.operationsOnlyInA.map((o) => [o, 'A']), ...c.operationsOnlyInB.map((o) => [o, 'B'])],
    ),
    table('Response schema drift', ['operation', 'change', 'field', 'A', 'B'], driftRows),
  ].join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Run comparison</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin-bottom:1.5em;width:100%}
th,td{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}th{background:#f3f3f3}
code{background:#f3f3f3;padding:1px 4px}.ok{color:#1a7f37;font-weight:600}.diff{color:#b35900;font-weight:600}small{color:#666}
</style></head><body>
<h1>Run comparison</h1>
<p><b>A</b>: <code>${esc(c.a.source)}</code> — ${esc(c.a.projects.join(', '))}, ${c.a.tests} tests${c.a.exchanges !== undefined ? `, ${c.a.exchanges} exchanges` : ''}<br>
<b>B</b>: <code>${esc(c.b.source)}</code> — ${esc(c.b.projects.join(', '))}, ${c.b.tests} tests${c.b.exchanges !== undefined ? `, ${c.b.exchanges} exchanges` : ''}</p>
<p class="${hasDifferences(c) ? 'diff' : 'ok'}">${hasDifferences(c) ? 'differences found' : 'no differences'}</p>
${c.transcriptNote ? `<p><i>${esc(c.transcriptNote)}</i></p>` : ''}
${body}
</body></html>
`;
}

// ── command line ─────────────────────────────────────────────────────────────────────────────────

const USAGE =
  'usage: npm run compare -- <runA> <runB> [--transcript-a <jsonl|dir>] [--transcript-b <jsonl|dir>] [--out <dir>] [--fail-on-diff]  (a run: last, previous, a run id, a run folder, a Playwright JSON report or a certification bundle)';

/** A run as the user named it (record/run-folder.ts resolveRun); one sentence listing the runs there are when it names none. */
export function loadNamedRun(
  spec: string,
  transcriptOverride?: string,
  runsRoot = suiteEnvironment().runsRoot,
): RunData {
  const resolved = resolveRun(spec, runsRoot);
  const hint = `give last, previous, a run id, a run folder, a Playwright JSON report or a certification bundle; ${availableRunsText(runsRoot)}`;
  // A newer run that kept no record would make "last" an older run than the user just made: say so instead of comparing it.
  const skipped = passedOver(spec, runsRoot);
  const listed = skipped.map((s) => `${s.name} (${s.why})`).join(', ');
  if (skipped.some((s) => s.recordLost))
    throw new Error(
      `"${spec}" would pass over newer run folders that kept no record of their run: ${listed}; name the runs to compare instead (${availableRunsText(runsRoot)})`,
    );
  if (!resolved) throw new Error(`"${spec}" names no run: ${hint}`);
  if (skipped.length) console.error(`compare: "${spec}" is ${path.basename(resolved)}, passing over ${listed}`);
  try {
    return loadRun(resolved, transcriptOverride);
  } catch (error) {
    throw new Error(`"${spec}" is not a run (${(error as Error).message.replace(/: give .*$/, '')}): ${hint}`);
  }
}

export function main(argv: string[]): number {
  const positional: string[] = [];
  const opts: Record<string, string | boolean> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--fail-on-diff') opts.failOnDiff = true;
    else if (/^--(transcript-a|transcript-b|out)(=|$)/.test(a)) {
      const [flag, inline] = a.includes('=')
        ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]
        : [a, argv[++i]];
      if (!inline) throw new Error(`${flag} needs a value\n${USAGE}`);
      opts[flag.slice(2)] = inline;
    } else if (a.startsWith('--')) throw new Error(`unknown option ${a}\n${USAGE}`);
    else positional.push(a);
  }
  if (positional.length !== 2) throw new Error(`${USAGE}\n${availableRunsText(suiteEnvironment().runsRoot)}`);
  const a = loadNamedRun(positional[0]!, opts['transcript-a'] as string | undefined);
  const b = loadNamedRun(positional[1]!, opts['transcript-b'] as string | undefined);
  const comparison = compareRuns(a, b);
  console.log(renderText(comparison));
  const out = (opts.out as string | undefined) ?? path.join('reports', 'compare');
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, 'index.html'), renderHtml(comparison));
  writeFileSync(path.join(out, 'comparison.json'), `${JSON.stringify(comparison, null, 2)}\n`);
  console.log(`html: ${path.resolve(out, 'index.html')}`);
  return opts.failOnDiff && hasDifferences(comparison) ? 1 : 0;
}

if (require.main === module) {
  try {
    process.exit(main(process.argv.slice(2)));
  } catch (error) {
    console.error(`✖ ${(error as Error).message}`);
    process.exit(2);
  }
}
