/**
 * `npm run dialects [-- --only 1,4 | --value-cover] [--grep <regex>] [--workers N] [--list] [--keep] [--write-cover] [--discovered-report] [--report-every N | --report-values] [--split-rows | --split-lanes]`
 *
 * The dialect matrix: proves the suite holds no hidden assumption about the reference's "not shown"
 * choices. One reference is started; its dialect fields (GET /_admin/info dialectChoices) become a
 * pairwise covering array (scripts/lib/covering-array.ts): every pair of values of any two fields is
 * in some dialect. For each dialect, on that one reference (each project registers its clients in its
 * own dialect):
 *   enforce  discovery against the dialect adopted into a copy of the local profile, then the suite
 *            with that profile, assumptions enforced: the discovered profile describes the dialect;
 *   report   the suite with the local profile as it is, assumptions reported: whatever the dialect,
 *            nothing documented fails (unmet assumptions are annotations, gated tests are blocked);
 *            with --discovered-report, the discovered profile instead, assumptions reported: each
 *            discovered profile in both modes, where a report run's notes are discovery's misses too;
 *            with --report-every N, only dialects 1, 1+N, 1+2N…; with --report-values, only the few
 *            dialects that together hold every value of every dialect field (npm test's choice).
 * With --value-cover, both lanes run on those few dialects only (npm test's choice): every value of
 * every field meets every test, in both lanes, though not every pair of values.
 * With --split-rows, the enforce lane's dialects fall into groups that each
 * hold every value of every dialect field (covering-array.ts valueCoverPartition), and each test of a
 * table-driven file (TABLE_FILES) runs on one group's dialects instead of all: every such test still
 * meets every value of every field, and a table's tests together meet every dialect (arrange/row-group.ts).
 * With --split-lanes (every dialect in both lanes), each test of a table-driven file runs in one lane
 * instead of both, on every dialect: half a table's tests enforced, the other half reported. Every such
 * test still meets every dialect, and each lane still meets every dialect with every table.
 * Every project of both kinds runs in one Playwright invocation (playwright.dialects.config.ts), with
 * minimal evidence and no Allure. Exit 1 when any test fails or a dialect could not be prepared.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { environmentsDir } from '../profile/profile';
import { setJsonValue } from '../messages/json-edit';
import { shareClientKeys } from '../transport/keys';
import { flattenReport, readReportFile, reportErrors, type ReportTest } from '../record/playwright-report';
import { runPaths } from '../record/run-folder';
import {
  fewestRows,
  pairwiseCover,
  uncoveredPairs,
  valueCover,
  valueCoverPartition,
  type Factor,
  type Level,
  type Row,
} from './lib/covering-array';
import { startReferenceProcess } from './lib/reference-process';
import { runPlaywright } from './lib/run-playwright';
import { cliMain } from './lib/cli';
import { discoverProfile, costLine } from './discover';
import { changesOf } from '../engines/discovery/diff';
import { isDeepStrictEqual, stripVTControlCharacters } from 'node:util';
import type { DialectPlan } from '../playwright.dialects.config';
import type { RowGroup } from '../arrange/row-group';
import { readingQuestions } from '../engines/discovery/choices';
import { readingFieldOf } from '../ledger/readings';
import { assumptionsNotMetOf, checksOf, skipReasonOf } from '../ledger/outcomes';
import { ruleById } from '../ledger/rules';
import { historyBlock, historyFailed, historyRecord, judgeRunHistory } from '../runner/history';

const USAGE =
  'usage: npm run dialects [-- --only 1,4 | --value-cover] [--grep <regex>] [--workers N] [--list] [--keep] [--write-cover] [--discovered-report] [--report-every N | --report-values] [--split-rows | --split-lanes]';

/**
 * The table-driven files (one case of a table per test, from cases/ and the operation drivers): most
 * of a dialect's tests. With --split-rows each of their tests runs on one group of the enforce lane's
 * dialects; every other test, on every dialect. A file renamed and not here would run everywhere
 * unnoticed: the dialect-cover unit test checks each still exists.
 */
export const TABLE_FILES = [
  'access/cross-cutting.spec.ts',
  'returns/return-catalogue.spec.ts',
  'payments/validation.spec.ts',
  'auth/token.spec.ts',
  'payments/headers-and-sca.spec.ts',
];

/** The runner keeps every project's results: the matrix's projects together need more than a worker's 256 MB. */
const RUNNER_HEAP_MB = 1536;

/**
 * The matrix's runner and workers get 8 MB semi-spaces (1 MB elsewhere, scripts/lib/run-playwright.ts):
 * its cost is CPU, not memory.
 */
const SEMI_SPACE_MB = 8;

/** The profile every dialect starts from: its expectations are what the report-mode run keeps. */
const BASE_PROFILE = 'local';

interface Options {
  only: number[];
  /** Only the few dialects that together hold every value of every field, in both lanes (valueCover). */
  valueCover: boolean;
  workers: number;
  list: boolean;
  keep: boolean;
  writeCover: boolean;
  /** The report lane runs the discovered profile (assumptions reported), not the local one. */
  discoveredReport: boolean;
  /** The report lane runs for dialects 1, 1+N, 1+2N… (1: every dialect). */
  reportEvery: number;
  /** The report lane runs for the few dialects that together hold every value of every field (scripts/lib/covering-array.ts valueCover). */
  reportValues: boolean;
  /** The enforce lane runs each table-driven test on one group of its dialects (TABLE_FILES). */
  splitRows: boolean;
  /** Each table-driven test runs in one lane, enforce or report, on every dialect (TABLE_FILES). */
  splitLanes: boolean;
  outDir: string;
  /** Only the tests whose title matches (Playwright's --grep): a new test asked of every dialect in minutes. */
  grep: string | undefined;
}

export function parseDialectArgs(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      only: { type: 'string', multiple: true, default: [] },
      'value-cover': { type: 'boolean', default: false },
      workers: { type: 'string' },
      list: { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
      'write-cover': { type: 'boolean', default: false },
      'discovered-report': { type: 'boolean', default: false },
      'report-every': { type: 'string', default: '1' },
      'report-values': { type: 'boolean', default: false },
      'split-rows': { type: 'boolean', default: false },
      'split-lanes': { type: 'boolean', default: false },
      out: { type: 'string', default: 'reports/dialects' },
      grep: { type: 'string' },
    },
    strict: true,
  });
  const only = values
    .only!.flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean)
    .map(Number);
  if (only.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error(`--only takes dialect numbers (1, 2, …)\n${USAGE}`);
  if (values['split-rows'] && values['split-lanes'])
    throw new Error(`--split-rows and --split-lanes each split the table-driven tests: give one\n${USAGE}`);
  if (values['split-lanes'] && (values['report-every'] !== '1' || (values['report-values'] && !values['value-cover'])))
    throw new Error(
      `--split-lanes needs every dialect in both lanes: give it no --report-every, and --report-values only with --value-cover\n${USAGE}`,
    );
  if (only.length && values['value-cover'])
    throw new Error(`--only and --value-cover each choose the dialects: give one\n${USAGE}`);
  const reportEvery = Number(values['report-every']);
  if (!Number.isInteger(reportEvery) || reportEvery < 1)
    throw new Error(`--report-every takes a whole number of 1 or more\n${USAGE}`);
  if (values['report-values'] && values['report-every'] !== '1')
    throw new Error(`--report-every and --report-values each choose the report lane's dialects: give one\n${USAGE}`);
  // Six workers more than cores: a worker waiting for a settlement leaves its core to another
  // project, and while npm test's other lane waits (the kill matrix) or is done, the matrix's projects
  // keep both cores busy. Each project is one worker, so more workers cost no more worker starts.
  return {
    only,
    valueCover: values['value-cover']!,
    workers: Number(values.workers) || os.cpus().length + 6,
    list: values.list!,
    keep: values.keep!,
    writeCover: values['write-cover']!,
    discoveredReport: values['discovered-report']!,
    reportEvery,
    reportValues: values['report-values']!,
    splitRows: values['split-rows']!,
    splitLanes: values['split-lanes']!,
    outDir: values.out!,
    grep: values.grep,
  };
}

interface DialectChoice {
  field: string;
  values: Level[];
  default: Level;
}

/** The reference's dialect fields and their values, as it reports them. */
async function dialectFactors(referenceUrl: string): Promise<{ factors: Factor[]; defaults: Row }> {
  const res = await fetch(`${referenceUrl}/_admin/info`);
  if (res.status !== 200) throw new Error(`GET /_admin/info answered ${res.status}`);
  const info = (await res.json()) as { dialectChoices?: DialectChoice[] };
  if (!Array.isArray(info.dialectChoices) || !info.dialectChoices.length)
    throw new Error('GET /_admin/info has no dialectChoices');
  return {
    factors: info.dialectChoices.map((c) => ({ name: c.field, values: c.values })),
    defaults: Object.fromEntries(info.dialectChoices.map((c) => [c.field, c.default])),
  };
}

export interface MatrixDialect {
  number: number;
  name: string;
  /** Every field, as registered (dotted refusal classes). */
  fields: Row;
  /** The fields that differ from the default, for a reader. */
  changed: Row;
}

const dialectName = (n: number): string => `dialect-${String(n).padStart(2, '0')}`;

/**
 * The covering array of the last dialect fields it was computed for (`--write-cover`): its search
 * (IPOG, then fewer rows down to the bound: scripts/lib/covering-array.ts fewestRows) takes about
 * 30 CPU-s for today's fields, and about 40 CPU-s more for each row count it cannot reach, on the
 * path to the first dialect, for rows that change only when the reference's dialect fields do. Each
 * row is a dialect the whole suite runs against, once or twice.
 */
const COVER_FILE = path.join(__dirname, 'lib', 'dialect-cover.json');

interface KeptCover {
  factors: Factor[];
  rows: Row[];
}

/** The kept rows when they were computed for exactly these fields and values, else a new search. */
export function coverOf(factors: readonly Factor[], file = COVER_FILE): { rows: Row[]; kept: boolean } {
  const kept = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as KeptCover) : undefined;
  if (kept && isDeepStrictEqual(kept.factors, factors) && !uncoveredPairs(factors, kept.rows).length)
    return { rows: kept.rows, kept: true };
  return { rows: fewestRows(factors, pairwiseCover(factors)), kept: false };
}

/** One dialect per row of the covering array, numbered from 1. */
export function matrixDialects(
  factors: readonly Factor[],
  defaults: Row,
  rows = pairwiseCover(factors),
): MatrixDialect[] {
  const missing = uncoveredPairs(factors, rows);
  if (missing.length) throw new Error(`the covering array misses ${missing.length} pairs, e.g. ${missing[0]}`);
  return rows.map((fields, i) => ({
    number: i + 1,
    name: dialectName(i + 1),
    fields,
    changed: Object.fromEntries(Object.entries(fields).filter(([k, v]) => defaults[k] !== v)),
  }));
}

/** A profile (the local one, or one discovery wrote) renamed, aimed at the reference in `dialect`, with `assumptions` as given. */
function dialectProfileText(
  base: string,
  name: string,
  dialect: MatrixDialect,
  assumptions: 'enforce' | 'report',
  description: string,
): string {
  let text = setJsonValue(base, ['name'], name);
  text = setJsonValue(text, ['description'], description);
  text = setJsonValue(text, ['target', 'dialect'], { name: dialect.name, ...dialect.fields });
  return setJsonValue(text, ['expectations', 'assumptions'], assumptions);
}

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  /** Table-driven tests left to another group of dialects (--split-rows): not counted as skipped. */
  elsewhere: number;
  testMs: number;
  /**
   * The assumptions the lane found not met, by rule: a report run's notes ('assumption not met'), an
   * enforce run's failed checks of an assumption rule. On a discovered profile both are discovery's
   * misses: an answer the run met that discovery never asked for.
   */
  notMet: Record<string, number>;
  /** Tests blocked by an assumption (a gate that did not hold), by rule. */
  blocked: Record<string, number>;
}

const tally = (into: Record<string, number>, rules: readonly string[]): void => {
  for (const rule of new Set(rules)) into[rule] = (into[rule] ?? 0) + 1;
};

const countsOf = (tests: readonly ReportTest[]): Counts => {
  const c: Counts = { passed: 0, failed: 0, skipped: 0, elsewhere: 0, testMs: 0, notMet: {}, blocked: {} };
  for (const t of tests) {
    const annotations = [...t.annotations, ...t.resultAnnotations];
    if (t.outcome === 'skipped' && skipReasonOf(annotations)?.kind === 'row-group') {
      c.elsewhere++;
      continue;
    }
    c[t.outcome]++;
    c.testMs += t.durationMs;
    tally(c.notMet, [
      ...assumptionsNotMetOf(annotations),
      ...checksOf(annotations)
        .filter((check) => !check.ok && ruleById.get(check.rule)?.level === 'assumption')
        .map((check) => check.rule),
    ]);
    const skip = skipReasonOf(annotations);
    if (skip?.kind === 'blocked' && skip.by.startsWith('assumption ')) tally(c.blocked, [skip.by.slice(11)]);
  }
  return c;
};

/** "3 (ERR-01 2, RFD-07 1)": a lane's tests by rule, for a reader. */
const byRule = (counts: Record<string, number>): string => {
  const entries = Object.entries(counts).sort(([a], [b]) => a.localeCompare(b));
  const total = entries.reduce((n, [, k]) => n + k, 0);
  return total ? `${total} (${entries.map(([rule, n]) => `${rule} ${n}`).join(', ')})` : '0';
};

type Answers = ReadonlyMap<string, readonly Level[]>;

/**
 * How discovery must have observed a dialect field's value: the field is a real switch, reachable
 * through the API, and discovery reads it into the profile field named. `includes`: among the answers
 * (a class answered by several probes); `only`: the one answer; `status-path`: "status" observed exactly
 * when the dialect reports business rejections in pacs.002. `when`: the field shows only in dialects
 * where it holds (the business status only where business rules refuse at submission). `as`: the
 * answer a value reads as (a cause's status 422 as the class business). Fields without
 * an entry are no answer a profile holds (token and id formats, notAcceptable, conflict, unusual
 * input): the reference's unit tests cover those.
 */
const SWITCHES: Readonly<
  Record<
    string,
    {
      field: string;
      seen: 'includes' | 'only' | 'status-path';
      when?: (dialect: Row) => boolean;
      as?: (value: Level, dialect: Row) => Level | readonly Level[];
    }
  >
> = {
  ...Object.fromEntries(
    ['validation', 'malformed', 'forbidden', 'sca', 'mediaType', 'tooLarge', 'missingHeader'].map((c) => [
      `refusalStatus.${c}`,
      { field: `expectations.refusalStatus.${c}`, seen: 'includes' as const },
    ]),
  ),
  'refusalStatus.business': {
    field: 'expectations.refusalStatus.business',
    seen: 'includes',
    when: (dialect) => dialect.businessRejection !== 'status',
  },
  errorBody: { field: 'expectations.errorBody', seen: 'only' },
  interimStatus: { field: 'expectations.statusCodes.pending', seen: 'includes' },
  // A dialect that shows ISO's ACSC some time after its ACCC (laterAcceptedStatus) has two accepted
  // codes: a follow whose first settled read came after another read of the payment sees the later
  // one only. Either is the dialect’s accepted code.
  acceptedStatus: {
    field: 'expectations.statusCodes.accepted',
    seen: 'includes',
    as: (value, dialect) =>
      dialect.laterAcceptedStatus !== undefined && dialect.laterAcceptedStatus !== 'none'
        ? [value, dialect.laterAcceptedStatus]
        : value,
  },
  rejectStatus: { field: 'expectations.statusCodes.rejected', seen: 'includes' },
  expiresInType: { field: 'expectations.expiresIn', seen: 'only' },
  returnUnknownOriginal: { field: 'expectations.returnUnknownOriginal', seen: 'only' },
  onUs: { field: 'expectations.onUs', seen: 'only' },
  businessRejection: { field: 'expectations.businessRejection', seen: 'status-path' },
  idempotencyConflict: { field: 'expectations.idempotencyConflict', seen: 'only' },
  assertionReplay: { field: 'expectations.assertionReplay', seen: 'only' },
  // A request the spec leaves open: the reference names its dialect field as the profile names the reading's.
  ...Object.fromEntries(
    readingQuestions.map(({ rule }) => {
      const field = readingFieldOf(rule);
      return [field, { field: `expectations.${field}`, seen: 'only' as const }];
    }),
  ),
  // A hub that validates against the XSD refuses a root ISO does not define before its own reading.
  refundUnknownRoot: {
    field: 'expectations.refundUnknownRoot',
    seen: 'only',
    when: (dialect) => dialect.isoValidation !== 'xsd',
  },
  cancellationRequestRoot: { field: 'messages.cancellation.root', seen: 'only' },
  resolutionRoot: { field: 'messages.resolution.root', seen: 'only' },
  // Where any root is read as the refund, the declared one is too: the spelling a dialect accepts shows only where others are refused.
  refundRoot: {
    field: 'messages.refund.root',
    seen: 'only',
    when: (dialect) => dialect.refundUnknownRoot !== 'allow',
  },
  // Members outside a data object (answerEnvelope none) make the repeats of a return, a refund and a
  // cancellation read as any beside the payment's repeat: one value shows only where they are wrapped alike.
  repeatBody: {
    field: 'expectations.repeatBody',
    seen: 'only',
    when: (dialect) => dialect.answerEnvelope !== 'none' || dialect.repeatBody === 'empty',
  },
  msgIdEchoName: { field: 'expectations.msgIdEcho', seen: 'only' },
  scaOnCancellation: { field: 'expectations.scaOnCancellation', seen: 'only' },
  scaOnRefund: { field: 'expectations.scaOnRefund', seen: 'only' },
  incomingRoot: { field: 'messages.incomingPayment.root', seen: 'only' },
  // No body, or members outside a data object (answerEnvelope none), is neither §2.3's data object nor
  // the id alone: the profile reads it as any.
  returnAnswer: {
    field: 'expectations.returnAnswer',
    seen: 'only',
    as: (value, dialect) => (value === 'empty' || dialect.answerEnvelope === 'none' ? 'any' : value),
  },
  // The reference's refund answer is §2.3's data object, or its members at the top level: read as any.
  answerEnvelope: {
    field: 'expectations.refundAnswer',
    seen: 'only',
    as: (value) => (value === 'none' ? 'any' : 'data'),
  },
  // A data object whose status is RECEIVED is neither §2.3's nor the id alone: the profile reads it as any.
  cancelAnswer: {
    field: 'expectations.cancelAnswer',
    seen: 'only',
    as: (value, dialect) => (value === 'received' || dialect.answerEnvelope === 'none' ? 'any' : value),
  },
  tokenErrorCodes: { field: 'expectations.tokenErrorCodes', seen: 'only' },
  amountPrecision: { field: 'expectations.amountPrecision', seen: 'only' },
  // A hub that validates against the XSD refuses the 19-digit probe by ISO's totalDigits 18 first.
  amountDigits: {
    field: 'expectations.amountDigits',
    seen: 'only',
    when: (dialect) => dialect.isoValidation !== 'xsd',
  },
  // The XSD refuses each of §2.5's own spellings; a reader of §2.5's table takes them.
  isoValidation: {
    field: 'expectations.returnSpecSpellings',
    seen: 'only',
    as: (value) => (value === 'xsd' ? 'refuse' : 'allow'),
  },
  // Under the XSD only ISO's place passes, whatever the field says.
  returnCreditorName: {
    field: 'expectations.returnCreditorName',
    seen: 'only',
    as: (value, dialect) => (dialect.isoValidation === 'xsd' ? 'party' : value),
  },
  partyName: {
    field: 'expectations.partyWithoutName',
    seen: 'only',
    as: (value) => (value === 'optional' ? 'allow' : 'refuse'),
  },
  // Returns are answered in every dialect (camt.056 and pacs.007 only in the root a dialect accepts).
  acceptanceStatus: { field: 'expectations.acceptanceStatus.returnPayment', seen: 'only' },
  // Passed through before the accepted code, so interim: unless it is the accepted code itself.
  settlingStatus: {
    field: 'expectations.statusCodes.pending',
    seen: 'includes',
    when: (dialect) => dialect.settlingStatus !== 'none' && dialect.settlingStatus !== dialect.acceptedStatus,
  },
  'causeStatus.scaHd': {
    field: 'expectations.refusalStatus.sca',
    seen: 'includes',
    when: (dialect) => dialect['causeStatus.scaHd'] !== 'class',
  },
  // A business refusal of a request that conflicts with a state (a second return…): discovery sends one.
  'causeStatus.businessState': {
    field: 'expectations.refusalStatus.business',
    seen: 'includes',
    when: (dialect) => dialect['causeStatus.businessState'] !== 'class' && dialect.businessRejection !== 'status',
  },
  // The class is the reading: the notFound class's status, or 422 read as a business refusal. Accepted
  // and rejected in its camt.029, it has no refusal class to learn (the profile keeps either).
  'causeStatus.cancelUnknown': {
    field: 'expectations.cancelUnknownPayment',
    seen: 'only',
    as: (value) => (value === 'class' ? 'notFound' : 'business'),
    when: (dialect) => dialect['causeStatus.cancelUnknown'] !== 'camt029',
  },
};

/** The dialect fields whose value discovery did not observe as the dialect sets it. */
function unseenSwitches(dialect: MatrixDialect, answers: Answers): string[] {
  return Object.entries(SWITCHES).flatMap(([name, { field, seen, when, as }]) => {
    if (!(name in dialect.fields) || (when && !when(dialect.fields))) return [];
    const value = as ? as(dialect.fields[name]!, dialect.fields) : dialect.fields[name]!;
    const observed = answers.get(field) ?? [];
    // Several values: any of them is the dialect's answer.
    const values: readonly Level[] = Array.isArray(value) ? value : [value];
    const ok =
      seen === 'includes'
        ? values.some((v) => observed.includes(v))
        : seen === 'only'
          ? values.some((v) => isDeepStrictEqual(observed, [v]))
          : observed.includes('status') === values.includes('status');
    return ok ? [] : [`${name}=${JSON.stringify(value)}, but discovery observed ${field} ${JSON.stringify(observed)}`];
  });
}

/**
 * With --split-lanes: each table-driven test in the enforce projects (group 0) or the report projects
 * (group 1), chosen by its title, so that it still meets every dialect (every dialect is in both
 * lanes: parseDialectArgs).
 */
function splitLanes(dialects: readonly MatrixDialect[]): Record<string, RowGroup> {
  console.log(
    `rows: each test of ${TABLE_FILES.length} table-driven files runs in one lane, enforce or report, on every dialect`,
  );
  const lane = (group: number): RowGroup => ({ group, groups: 2, files: TABLE_FILES });
  return Object.fromEntries(
    dialects.flatMap((d) => [
      [`${d.name}-enforce`, lane(0)],
      [`${d.name}-report`, lane(1)],
    ]),
  );
}

/**
 * The enforce projects' row groups: the dialects split into as many groups as each hold every value of
 * every field, printed; undefined (every test on every dialect) when no two such groups exist.
 */
function splitRows(
  factors: readonly Factor[],
  dialects: readonly MatrixDialect[],
): Record<string, RowGroup> | undefined {
  const groups = valueCoverPartition(
    factors,
    dialects.map((d) => d.fields),
  );
  const names = groups.map((g) => g.map((i) => dialects[i]!.number).join(','));
  if (groups.length < 2) {
    console.log(
      'rows: no two groups of these dialects each hold every value of every field; every table-driven test runs on every dialect',
    );
    return undefined;
  }
  console.log(
    `rows: each test of ${TABLE_FILES.length} table-driven files runs on one of ${groups.length} groups of the enforce lane's dialects, each group holding every value of every field: ${names.join(' | ')}`,
  );
  return Object.fromEntries(
    groups.flatMap((g, group) =>
      g.map((i) => [`${dialects[i]!.name}-enforce`, { group, groups: groups.length, files: TABLE_FILES }]),
    ),
  );
}

export async function dialectMatrix(options: Options): Promise<boolean> {
  const started = Date.now();
  const base = readFileSync(path.join(environmentsDir, `${BASE_PROFILE}.json`), 'utf8');
  // A dialect's settlingStatus shows from the first read that finds a payment settled (every poller
  // sees it once), then for REF_SETTLING_MS: 1 s by default, a quarter here. Every payment of such a
  // dialect is followed through it; at 1 s its seven dialects were most of the matrix's waiting.
  const reference = await startReferenceProcess({ REF_SETTLING_MS: '250' });
  const work = mkdtempSync(path.join(os.tmpdir(), 'payments-dialects-'));
  try {
    const { factors, defaults } = await dialectFactors(reference.url);
    const cover = coverOf(factors);
    if (options.writeCover && !cover.kept)
      writeFileSync(COVER_FILE, `${JSON.stringify({ factors, rows: cover.rows }, null, 1)}\n`);
    const all = matrixDialects(factors, defaults, cover.rows);
    console.log(
      `dialect matrix: ${all.length} dialects cover every pair of values of the reference's ${factors.length} dialect fields`,
    );
    if (!cover.kept)
      console.log(
        `  (searched for: the reference's fields differ from ${path.relative(process.cwd(), COVER_FILE)}'s${options.writeCover ? ', now written' : '; npm run dialects -- --write-cover keeps these rows'})`,
      );
    const unknown = options.only.filter((n) => n > all.length);
    if (unknown.length) throw new Error(`no dialect ${unknown.join(', ')}: there are ${all.length}\n${USAGE}`);
    const valueRows = new Set(valueCover(factors, cover.rows).map((i) => i + 1));
    const dialects = options.only.length
      ? all.filter((d) => options.only.includes(d.number))
      : options.valueCover
        ? all.filter((d) => valueRows.has(d.number))
        : all;
    if (options.valueCover)
      console.log(
        `value cover: dialects ${dialects.map((d) => d.number).join(', ')}, which together hold every value of every dialect field, in both lanes (npm run dialects runs all ${all.length})`,
      );
    if (options.list) {
      for (const d of all) console.log(`  ${d.name}  ${JSON.stringify(d.changed)}`);
      return true;
    }

    // Discovery per dialect, adopted into a copy of the local profile: the enforce run's profile. All
    // at once: a discovery mostly waits on settlements and spends little CPU.
    const profiles = path.join(work, 'profiles');
    mkdirSync(profiles);
    shareClientKeys();
    const discoverStarted = Date.now();
    const discovered = await Promise.all(
      dialects.map(async (d) => {
        const enforce = `${d.name}-enforce`;
        writeFileSync(
          path.join(profiles, `${enforce}.json`),
          dialectProfileText(
            base,
            enforce,
            d,
            'enforce',
            `The local profile with what discovery observed of reference dialect ${d.name} adopted, assumptions enforced.`,
          ),
        );
        const outcome = await discoverProfile(enforce, {
          dir: profiles,
          write: true,
          referenceUrl: reference.url,
          print: false,
        });
        // The report lane's profile: the local one as it is, or (--discovered-report) the one discovery wrote.
        writeFileSync(
          path.join(profiles, `${d.name}-report.json`),
          options.discoveredReport
            ? dialectProfileText(
                readFileSync(path.join(profiles, `${enforce}.json`), 'utf8'),
                `${d.name}-report`,
                d,
                'report',
                `What discovery observed of reference dialect ${d.name}, assumptions reported.`,
              )
            : dialectProfileText(
                base,
                `${d.name}-report`,
                d,
                'report',
                `The local profile as it is, against reference dialect ${d.name}, assumptions reported.`,
              ),
        );
        const answers: Answers = new Map(outcome.diff.fields.map((f) => [f.field, f.observed]));
        return {
          dialect: d,
          cost: costLine(enforce, outcome.discovery),
          adopted: changesOf(outcome.diff).map((f) => `${f.field}=${JSON.stringify(f.adopt)}`),
          unseen: unseenSwitches(d, answers),
        };
      }),
    );
    const discoverMs = Date.now() - discoverStarted;
    for (const x of discovered)
      console.log(`  ${x.cost}; adopted ${x.adopted.length ? x.adopted.join(' ') : 'nothing'}`);
    const unseen = discovered.flatMap((x) => x.unseen.map((u) => `${x.dialect.name}: ${u}`));
    const checked = Object.keys(SWITCHES).filter((f) => factors.some((x) => x.name === f));
    console.log(
      `switches: discovery observed ${checked.length} of the ${factors.length} dialect fields as each dialect sets them${unseen.length ? `, except ${unseen.length}:` : ' in every dialect'}`,
    );
    for (const u of unseen) console.log(`  ✖ ${u}`);

    // Playwright starts projects in this order and runs each in one worker, so the matrix ends with
    // its last projects alone, their workers mostly waiting on settlements. The report projects go
    // first: in npm test's runs nearly every one took longer than its dialect's enforce project (766
    // against 449 test-seconds over the 18), so the shorter enforce projects end the run.
    const reported = (d: MatrixDialect): boolean =>
      options.reportValues ? valueRows.has(d.number) : (d.number - 1) % options.reportEvery === 0;
    if (options.reportValues && !options.valueCover) {
      const cover = `${[...valueRows].join(', ')}, which together hold every value of every dialect field`;
      const here = dialects.filter(reported).map((d) => d.number);
      console.log(
        `report lane: dialects ${here.length === valueRows.size ? cover : `${here.join(', ') || 'none'} of ${cover}`}`,
      );
    }
    const projectNames = [
      ...dialects.filter(reported).map((d) => `${d.name}-report`),
      ...dialects.map((d) => `${d.name}-enforce`),
    ];
    const rowGroups = options.splitRows
      ? splitRows(factors, dialects)
      : options.splitLanes
        ? splitLanes(dialects)
        : undefined;
    const plan: DialectPlan = {
      dir: profiles,
      profiles: projectNames,
      workers: options.workers,
      ...(rowGroups ? { rowGroups } : {}),
    };
    const planFile = path.join(work, 'dialect-plan.json');
    writeFileSync(planFile, JSON.stringify(plan));
    const runDir = path.join(work, 'run');
    console.log(
      `suite: ${projectNames.length} projects (${dialects.length} dialects × enforce, ${dialects.filter(reported).length} × report) on one reference, ${options.workers} workers…`,
    );
    const suiteStarted = Date.now();
    const run = await runPlaywright(
      options.grep === undefined ? [] : ['--grep', options.grep],
      {
        PAYMENTS_RUN_DIR: runDir,
        PAYMENTS_DIALECT_PLAN: planFile,
        PAYMENTS_ALLURE: '0',
        REF_URL: reference.url,
        PAYMENTS_CLIENT_FAULTS: '',
      },
      {
        quiet: true,
        config: 'playwright.dialects.config.ts',
        runnerHeapMb: RUNNER_HEAP_MB,
        semiSpaceMb: SEMI_SPACE_MB,
      },
    );
    const suiteMs = Date.now() - suiteStarted;
    const report = readReportFile(runPaths(runDir).jsonReport);
    // Every project's history, judged at the run's end: a violation in any dialect fails the matrix.
    const history = judgeRunHistory(runDir);
    const tests = report ? flattenReport(report) : [];
    const errors = report ? reportErrors(report) : ['no JSON report was written'];

    const rows = dialects.map((d) => {
      const enforce = countsOf(tests.filter((t) => t.project === `${d.name}-enforce`));
      const reported = countsOf(tests.filter((t) => t.project === `${d.name}-report`));
      return { dialect: d, enforce, report: reported };
    });
    const line = (c: Counts): string =>
      `${String(c.passed).padStart(4)} passed ${String(c.failed).padStart(3)} failed ${String(c.skipped).padStart(3)} skipped`;
    const reportOf = options.discoveredReport ? 'report (discovered profile)' : 'report (local profile)';
    console.log(`\n  dialect      enforce (discovered profile)         ${reportOf.padEnd(37)}test time`);
    for (const r of rows)
      console.log(
        `  ${r.dialect.name}   ${line(r.enforce)}   ${reported(r.dialect) ? line(r.report) : `not run (${options.reportValues ? '--report-values' : '--report-every'})`.padEnd(34)}   ${((r.enforce.testMs + r.report.testMs) / 1000).toFixed(0).padStart(4)} s`,
      );
    // What the runs found of the assumptions: on the discovered profile (enforce) every one should hold.
    console.log('\n  assumptions not met (tests, by rule), and tests blocked by an assumption:');
    for (const r of rows)
      console.log(
        `  ${r.dialect.name}   enforce: not met ${byRule(r.enforce.notMet)}, blocked ${byRule(r.enforce.blocked)}; report: not met ${byRule(r.report.notMet)}, blocked ${byRule(r.report.blocked)}`,
      );
    const notMet = (lane: 'enforce' | 'report') =>
      rows.reduce((n, r) => n + Object.values(r[lane].notMet).reduce((a, b) => a + b, 0), 0);
    // On a discovered profile an unmet assumption is discovery's miss, in either mode.
    const discoveredNotMet = notMet('enforce') + (options.discoveredReport ? notMet('report') : 0);
    console.log(
      `  ${discoveredNotMet} assumption${discoveredNotMet === 1 ? '' : 's'} not met on the discovered profiles (${options.discoveredReport ? 'enforce and report' : 'enforce'})`,
    );
    const failures = tests.filter((t) => t.outcome === 'failed');
    for (const t of failures.slice(0, 40))
      console.log(
        `  ✖ ${t.project} › ${t.title}\n      ${
          stripVTControlCharacters(t.errors[0] ?? '')
            .split('\n')
            .find((l) => l.trim())
            ?.trim()
            .slice(0, 240) ?? ''
        }`,
      );
    if (failures.length > 40)
      console.log(`  … and ${failures.length - 40} more failures (${path.join(options.outDir, 'matrix.json')})`);
    for (const e of errors) console.log(`  ✖ playwright error: ${e.split('\n')[0]}`);
    const empty = rows.filter(
      (r) =>
        r.enforce.passed + r.enforce.failed + r.enforce.skipped === 0 ||
        (reported(r.dialect) && r.report.passed + r.report.failed + r.report.skipped === 0),
    );
    for (const r of empty) console.log(`  ✖ ${r.dialect.name}: a project ran no test`);
    for (const line of historyBlock(history)) console.log(`  ${line}`);

    const wallMs = Date.now() - started;
    const ok =
      failures.length === 0 &&
      discoveredNotMet === 0 &&
      errors.length === 0 &&
      empty.length === 0 &&
      unseen.length === 0 &&
      !historyFailed(history) &&
      run.exitCode === 0;
    mkdirSync(options.outDir, { recursive: true });
    writeFileSync(
      path.join(options.outDir, 'matrix.json'),
      `${JSON.stringify(
        {
          ok,
          wallMs,
          discoverMs,
          suiteMs,
          workers: options.workers,
          reportLaneProfile: options.discoveredReport ? 'discovered' : 'local',
          fields: factors.length,
          dialects: rows.map((r) => ({
            name: r.dialect.name,
            changed: r.dialect.changed,
            fields: r.dialect.fields,
            enforce: r.enforce,
            report: r.report,
            adopted: discovered.find((x) => x.dialect === r.dialect)?.adopted,
          })),
          discoveredNotMet,
          switchesChecked: checked,
          unseenSwitches: unseen,
          failures: failures.map((t) => ({
            project: t.project,
            title: t.title,
            error: stripVTControlCharacters(t.errors[0] ?? '').slice(0, 2000),
          })),
          errors,
          history: historyRecord(history),
        },
        null,
        2,
      )}\n`,
    );
    const total = countsOf(tests);
    const elsewhere = total.elsewhere
      ? ` (and ${total.elsewhere} table-driven tests left to ${options.splitLanes ? 'the other lane' : 'another group of dialects'})`
      : '';
    console.log(
      `\ndialect matrix: ${ok ? 'OK' : 'FAILED'} — ${dialects.length} dialects, ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped${elsewhere}; discovery ${(discoverMs / 1000).toFixed(1)} s, suite ${(suiteMs / 1000).toFixed(1)} s, wall ${(wallMs / 1000).toFixed(1)} s (${path.join(options.outDir, 'matrix.json')})`,
    );
    console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
    return ok;
  } finally {
    await reference.stop();
    if (options.keep) console.log(`kept: ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
}

if (require.main === module) cliMain(USAGE, () => dialectMatrix(parseDialectArgs(process.argv.slice(2))));
