/**
 * The run's tests as JUnit XML (`junit.xml` in the run folder), where CI tools read results: GitLab's
 * test tab (`artifacts:reports:junit`), Jenkins, GitHub test-report actions. One testcase per test of
 * each project: its rules as properties, a failure's claim as the message (the failed checks' rules
 * and what they found, else the first error's first line) with the whole message as its text, and a
 * skipped test with its reason (an inconclusive one too: neither failed nor passed).
 *
 * GitLab reads a subset (lib/gitlab/ci/parsers/test/junit.rb): testsuites, then testsuite, testcase's
 * classname (shown as the suite), name, file and time in seconds, and the text of failure, error and
 * skipped. Its test names must be unique: with several projects, the classname starts with the
 * project's name. The schema this is checked against is tests/unit/support/junit/.
 */
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import type { ReportTest } from '../record/playwright-report';
import { checksOf, describeSkip, INCONCLUSIVE_ANNOTATION, skipReasonOf } from '../ledger/outcomes';
import { ruleIdsOf } from '../ledger/tags';

/** A test as JUnit needs it: ReportTest's fields (record/playwright-report.ts) a live reporter also has. */
export type JunitTest = Pick<
  ReportTest,
  'project' | 'titlePath' | 'file' | 'tags' | 'outcome' | 'annotations' | 'resultAnnotations' | 'durationMs' | 'errors'
>;

export interface JunitOptions {
  /** The testsuites' name. */
  name?: string;
  /** Where the tests' files are, relative to the repository: a test's `file` is the path from there. */
  testDir?: string;
  /** When the run started (ISO 8601). */
  timestamp?: string;
}

/** A character XML 1.0 cannot hold at all: a C0 control but tab, line feed and carriage return, U+FFFE, U+FFFF. */
const notXml = (code: number): boolean =>
  (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0xfffe || code === 0xffff;

/** The text with every character XML cannot hold (a lone surrogate too) replaced by U+FFFD. */
function xmlChars(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    out += notXml(code) || (code >= 0xd800 && code <= 0xdfff) ? '\uFFFD' : char;
  }
  return out;
}

export function xmlText(value: string): string {
  return xmlChars(stripVTControlCharacters(value)).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** An attribute value: line breaks and tabs kept as character references (an attribute's own would be read as spaces). */
export function xmlAttribute(value: string): string {
  return xmlText(value).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}

const seconds = (ms: number): string => (Math.max(0, ms) / 1000).toFixed(3);

/** An error's message without Playwright's stack. */
const messageOf = (error: string): string =>
  stripVTControlCharacters(error)
    .replace(/\n\s+at .*$/s, '')
    .replace(/^Error:\s*/, '')
    .trimEnd();

type Verdict =
  | { kind: 'passed' }
  /** checks: a check of a rule failed; error: the test failed otherwise (an exception, a timeout). */
  | { kind: 'failed'; claim: string; text: string; type: 'failed check' | 'error' }
  | { kind: 'skipped'; reason: string };

function verdictOf(test: JunitTest): Verdict {
  // Playwright copies a result's annotations to its test at the end: each once.
  const annotations = [
    ...test.annotations,
    ...test.resultAnnotations.filter(
      (a) => !test.annotations.some((b) => b.type === a.type && b.description === a.description),
    ),
  ];
  if (test.outcome === 'skipped') {
    const inconclusive = annotations.find((a) => a.type === INCONCLUSIVE_ANNOTATION);
    if (inconclusive)
      return { kind: 'skipped', reason: `inconclusive (infrastructure): ${inconclusive.description ?? ''}` };
    const reason = skipReasonOf(annotations);
    const said = annotations.find((a) => a.type === 'skip' || a.type === 'fixme')?.description;
    return { kind: 'skipped', reason: reason ? describeSkip(reason) : (said ?? 'skipped') };
  }
  if (test.outcome === 'passed') return { kind: 'passed' };
  const failed = checksOf(annotations).filter((c) => !c.ok);
  const messages = test.errors.map(messageOf).filter(Boolean);
  const claim = failed.length
    ? failed.map((c) => `${c.rule} ${c.what}`).join('; ')
    : (messages[0]?.split('\n')[0] ?? 'the test failed');
  const detail = failed.flatMap((c) => (c.detail ? [`${c.rule} ${c.what}: ${c.detail}`] : []));
  return {
    kind: 'failed',
    claim,
    text: [...messages, ...(messages.length ? [] : detail)].join('\n\n') || claim,
    type: failed.length ? 'failed check' : 'error',
  };
}

interface Suite {
  name: string;
  cases: string[];
  tests: number;
  failures: number;
  skipped: number;
  ms: number;
}

/** The run's tests as one JUnit XML document: a testsuite per project and file, a testcase per test. */
export function junitXml(tests: readonly JunitTest[], options: JunitOptions = {}): string {
  const projects = new Set(tests.map((t) => t.project));
  const several = projects.size > 1;
  const suites = new Map<string, Suite>();
  for (const test of tests) {
    const [file = '', ...titles] = test.titlePath;
    const suiteName = several ? `${test.project} › ${file}` : file;
    const suite = suites.get(suiteName) ?? { name: suiteName, cases: [], tests: 0, failures: 0, skipped: 0, ms: 0 };
    suites.set(suiteName, suite);
    const name = titles.at(-1) ?? file;
    const classname = [...(several ? [test.project] : []), file, ...titles.slice(0, -1)].join(' › ');
    const where = test.file ?? file;
    const filePath = options.testDir ? path.posix.join(options.testDir, where) : where;
    const verdict = verdictOf(test);
    const rules = ruleIdsOf(test.tags);
    const properties = [
      ...rules.map((id) => `        <property name="rule" value="${xmlAttribute(id)}"/>`),
      `        <property name="project" value="${xmlAttribute(test.project)}"/>`,
    ];
    const body: string[] = [`      <properties>`, ...properties, `      </properties>`];
    if (verdict.kind === 'failed')
      body.push(
        `      <failure message="${xmlAttribute(verdict.claim)}" type="${verdict.type}">${xmlText(verdict.text)}</failure>`,
      );
    if (verdict.kind === 'skipped')
      body.push(`      <skipped message="${xmlAttribute(verdict.reason)}">${xmlText(verdict.reason)}</skipped>`);
    suite.cases.push(
      [
        `    <testcase name="${xmlAttribute(name)}" classname="${xmlAttribute(classname)}" file="${xmlAttribute(filePath)}" time="${seconds(test.durationMs)}">`,
        ...body,
        `    </testcase>`,
      ].join('\n'),
    );
    suite.tests++;
    suite.ms += test.durationMs;
    if (verdict.kind === 'failed') suite.failures++;
    if (verdict.kind === 'skipped') suite.skipped++;
  }
  const all = [...suites.values()];
  const total = (key: 'tests' | 'failures' | 'skipped' | 'ms'): number => all.reduce((n, s) => n + s[key], 0);
  const stamp = options.timestamp ? ` timestamp="${xmlAttribute(options.timestamp)}"` : '';
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlAttribute(options.name ?? 'payments conformance')}" tests="${total('tests')}" failures="${total('failures')}" errors="0" time="${seconds(total('ms'))}">`,
    ...all.map((s) =>
      [
        `  <testsuite name="${xmlAttribute(s.name)}" tests="${s.tests}" failures="${s.failures}" errors="0" skipped="${s.skipped}" time="${seconds(s.ms)}"${stamp}>`,
        ...s.cases,
        '  </testsuite>',
      ].join('\n'),
    ),
    '</testsuites>',
    '',
  ].join('\n');
}
