/**
 * Playwright's JSON reporter output, declared once, and the one walk over its nested suites. Pure
 * apart from readReportFile. Every script that reads a report flattens it here and keeps its own
 * reading of the records (title shape, tag form, what counts as a failure).
 *
 * Field optionality follows what hand-made reports in the unit tests carry, not what Playwright
 * always writes: a real report has file, line, results and durations everywhere.
 */
import { existsSync, readFileSync } from 'node:fs';

export interface JsonAnnotation {
  type: string;
  description?: string;
}
export interface JsonError {
  message?: string;
}
/** A `test.step` of a result, with the steps inside it. */
export interface JsonStep {
  title: string;
  duration: number;
  steps?: JsonStep[];
}
export interface JsonResult {
  /** passed | failed | timedOut | skipped | interrupted */
  status: string;
  duration?: number;
  /** The worker that ran it, and when it began (ISO 8601). */
  workerIndex?: number;
  startTime?: string;
  steps?: JsonStep[];
  errors?: JsonError[];
  error?: JsonError;
  annotations?: JsonAnnotation[];
}
export type TestStatus = 'expected' | 'unexpected' | 'flaky' | 'skipped';
/** One spec in one project. */
export interface JsonTest {
  status: TestStatus;
  projectName: string;
  annotations?: JsonAnnotation[];
  results?: JsonResult[];
}
export interface JsonSpec {
  title: string;
  file?: string;
  line?: number;
  /** Playwright writes them without the leading @; hand-made reports may keep it. */
  tags?: string[];
  tests: JsonTest[];
}
export interface JsonSuite {
  /** The file suite's title is the file path relative to testDir. */
  title: string;
  file?: string;
  line?: number;
  suites?: JsonSuite[];
  specs?: JsonSpec[];
}
export interface PlaywrightJsonReport {
  suites: JsonSuite[];
  errors?: JsonError[];
}

export type ReportOutcome = 'passed' | 'failed' | 'skipped';

/** One (project, spec) pair of the report. */
export interface ReportTest {
  project: string;
  /** Suite titles from the file suite down, then the spec title; never the project. */
  titlePath: string[];
  /** titlePath joined with ' › '. */
  title: string;
  file?: string;
  line?: number;
  /** As in the report (normally without @). */
  tags: string[];
  status: TestStatus;
  /** The test's verdict: expected and flaky → passed, skipped → skipped, anything else → failed. */
  outcome: ReportOutcome;
  /** The test's own annotations (declared, and what Playwright copied there at the end). */
  annotations: JsonAnnotation[];
  /** Annotations of the last result (runtime skips and the like). */
  resultAnnotations: JsonAnnotation[];
  /** Status of the last result, undefined when the test has none (not run). */
  resultStatus?: string;
  /** Sum of the durations of every result (retries included). */
  durationMs: number;
  /** Messages of the last result's errors; the first falls back to its `error` when `errors` has no message. */
  errors: string[];
  /** Every result (retries included), as reported. */
  results: JsonResult[];
}

export const TITLE_SEPARATOR = ' › ';

const outcomeOf = (status: TestStatus): ReportOutcome =>
  status === 'expected' || status === 'flaky' ? 'passed' : status === 'skipped' ? 'skipped' : 'failed';

function errorMessages(result: JsonResult | undefined): string[] {
  if (!result) return [];
  const messages = (result.errors ?? []).map((e) => e.message);
  const first = messages[0] ?? result.error?.message;
  if (first === undefined) return [];
  return [first, ...messages.slice(1).filter((m): m is string => m !== undefined)];
}

/** One record per (spec, project), in report order: a suite's specs before its child suites. */
export function flattenReport(report: PlaywrightJsonReport): ReportTest[] {
  const out: ReportTest[] = [];
  const visit = (suite: JsonSuite, prefix: string[]): void => {
    const here = suite.title ? [...prefix, suite.title] : prefix;
    for (const spec of suite.specs ?? []) {
      const titlePath = [...here, spec.title];
      for (const t of spec.tests) {
        const results = t.results ?? [];
        const last = results.at(-1);
        const record: ReportTest = {
          project: t.projectName,
          titlePath,
          title: titlePath.join(TITLE_SEPARATOR),
          tags: spec.tags ?? [],
          status: t.status,
          outcome: outcomeOf(t.status),
          annotations: t.annotations ?? [],
          resultAnnotations: last?.annotations ?? [],
          durationMs: results.reduce((sum, r) => sum + (r.duration ?? 0), 0),
          errors: errorMessages(last),
          results,
        };
        if (spec.file !== undefined) record.file = spec.file;
        if (spec.line !== undefined) record.line = spec.line;
        if (last) record.resultStatus = last.status;
        out.push(record);
      }
    }
    for (const child of suite.suites ?? []) visit(child, here);
  };
  for (const suite of report.suites) visit(suite, []);
  return out;
}

/** The report in a file, or undefined when no file was written (a run that never started). */
export function readReportFile(file: string): PlaywrightJsonReport | undefined {
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as PlaywrightJsonReport;
}

/** Top-level errors of the report (config or global-setup failures), as messages. */
export const reportErrors = (report: PlaywrightJsonReport): string[] =>
  (report.errors ?? []).map((e) => e.message ?? '');
