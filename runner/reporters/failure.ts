/**
 * A failed test as the terminal shows it, read once: what failed and why (each failed check with
 * what was expected and received, and its rule's section of the spec as a path), the test's own line
 * in the code frame (not the oracle's in checks/), every exchange by its distinct title with the one
 * a failed check judged printed whole (headers whole: an sca-token's claims, hd included), and
 * "Reproduce": the replay's commands whole. No attachment numbers, nothing cut at 300 characters.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import type { TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { checksOf, RULE_OUTCOMES_LABEL } from '../../ledger/outcomes';
import { ruleById } from '../../ledger/rules';
import { ruleIdsOf } from '../../ledger/tags';
import { specSourceLine } from '../../record/spec-html';
import { quoteLines } from '../../ledger/quotes';

export interface Paint {
  red(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

export const plainPaint: Paint = { red: (t) => t, dim: (t) => t, bold: (t) => t };

/** Attachments no reader of a failure needs in the terminal: Allure's runtime messages, Playwright's internals. */
const unprinted = (name: string, contentType: string): boolean =>
  name.startsWith('_') || !contentType.startsWith('text/') || name === RULE_OUTCOMES_LABEL;

/** An exchange's attachment title (transport/transcript.ts exchangeTitle): "label — METHOD /path → 201". */
const EXCHANGE = /^.+ — [A-Z]+ \S+ → \d{3}$/;

/** The longest request body line shown: a message is evidence, but its headers are what a failure turns on. */
const BODY_CHARS = 400;
/** The most lines of any other attachment: the report holds the rest. */
const OTHER_LINES = 40;

/** A frame of a stack: "at fn (/abs/file.ts:87:18)" or "at /abs/file.ts:87:18". */
function framesOf(stack: string | undefined): { file: string; line: number; column: number }[] {
  return [...(stack ?? '').matchAll(/^\s*at (?:.*? \()?(.+?):(\d+):(\d+)\)?$/gm)].map((m) => ({
    file: m[1]!,
    line: Number(m[2]),
    column: Number(m[3]),
  }));
}

/** The code frame at the test's own line: the first frame of the error in the test's file, else Playwright's location. */
export function testCodeFrame(error: TestError, testFile: string, paint: Paint = plainPaint): string[] {
  const own = framesOf(error.stack).find((f) => path.resolve(f.file) === path.resolve(testFile));
  const at = own ?? error.location;
  if (!at || !existsSync(at.file)) return [];
  const source = readFileSync(at.file, 'utf8').split('\n');
  const width = String(at.line + 1).length;
  const lines = [`at ${path.relative(process.cwd(), at.file)}:${at.line}`];
  for (let n = Math.max(1, at.line - 2); n <= Math.min(source.length, at.line + 1); n++) {
    const mark = n === at.line ? '>' : ' ';
    lines.push(`${mark} ${String(n).padStart(width)} | ${source[n - 1]}`);
    if (n === at.line) lines.push(`  ${' '.repeat(width)} | ${' '.repeat(Math.max(0, at.column - 1))}^`);
  }
  return lines.map((l, i) => (i === 0 || l.startsWith('>') ? l : paint.dim(l)));
}

/** The error's message without Playwright's stack, snippet or colour. */
function messageOf(error: TestError): string[] {
  const text = stripVTControlCharacters(error.message ?? error.value ?? 'the test failed');
  return text
    .replace(/\n\s+at .*$/s, '')
    .trimEnd()
    .split('\n');
}

/**
 * An exchange's text for the terminal: the request line and headers whole, the request body on one
 * line (cut past BODY_CHARS: it is in the report and the run's transcripts), the answer whole.
 */
function exchangeLines(text: string): string[] {
  const [request = '', response = ''] = text.split(/\n(?=── response )/);
  const [head = '', ...body] = request.split('\n\n');
  const sent = body
    .join('\n\n')
    .trim()
    .replace(/\s*\n\s*/g, ' ');
  return [
    ...head.split('\n'),
    ...(sent
      ? [
          sent.length > BODY_CHARS
            ? `${sent.slice(0, BODY_CHARS)}… (${sent.length - BODY_CHARS} more characters)`
            : sent,
        ]
      : []),
    ...response.trimEnd().split('\n'),
  ];
}

const bodyOf = (a: TestResult['attachments'][number]): string | undefined =>
  a.body ? a.body.toString('utf8') : a.path && existsSync(a.path) ? readFileSync(a.path, 'utf8') : undefined;

/** Lines of one failed test: its header, errors, spec sections, code frame, exchanges, other attachments, Reproduce. */
export function formatFailure(test: TestCase, result: TestResult, index: number, paint: Paint = plainPaint): string[] {
  const [, project, , ...titles] = test.titlePath();
  const file = path.relative(process.cwd(), test.location.file);
  const indent = (lines: readonly string[], by = '    '): string[] => lines.map((l) => (l ? `${by}${l}` : l));
  const out: string[] = [
    paint.red(`  ${index}) ${titles.join(' › ')}`),
    paint.dim(`     [${project}] ${file}:${test.location.line} ${test.tags.join(' ')}`),
    '',
  ];
  const annotations = [...test.annotations, ...result.annotations];
  const failedChecks = checksOf(annotations).filter((c) => !c.ok);
  const errors = result.errors.length ? result.errors : result.error ? [result.error] : [];
  for (const error of errors) {
    out.push(...indent(messageOf(error)), '');
    out.push(...indent(testCodeFrame(error, test.location.file, paint)), '');
  }
  // The failed rules' sections, as paths a terminal and an editor open.
  const failedRules = failedChecks.length ? [...new Set(failedChecks.map((c) => c.rule))] : ruleIdsOf(test.tags);
  for (const id of failedRules) {
    const rule = ruleById.get(id);
    if (!rule) continue;
    out.push(`    spec: ${id} ${rule.section} → ${specSourceLine(rule.section)}`);
    // The clause's own words beside the failed check: a reader sees whether the test asked more of it.
    for (const line of quoteLines(rule)) out.push(paint.dim(`      ${line}`));
  }
  out.push('');
  const judged = new Set(failedChecks.flatMap((c) => (c.answer ? [c.answer] : [])));
  const exchanges = result.attachments.filter((a) => EXCHANGE.test(a.name) && a.contentType.startsWith('text/'));
  // Without a judged exchange (a failure no check claims), the last one is what went wrong last.
  const shownWhole = judged.size
    ? (a: (typeof exchanges)[number]) => judged.has(a.name)
    : (a: unknown) => a === exchanges.at(-1);
  for (const a of exchanges) {
    const whole = shownWhole(a);
    out.push(whole ? paint.bold(`    ${judged.has(a.name) ? '✘ ' : ''}${a.name}`) : paint.dim(`    ${a.name}`));
    const text = whole ? bodyOf(a) : undefined;
    if (text) out.push(...indent(exchangeLines(text), '      '), '');
  }
  if (exchanges.length && !shownWhole(exchanges.at(-1)!)) out.push('');
  for (const a of result.attachments) {
    if (EXCHANGE.test(a.name) || a.name === 'replay' || unprinted(a.name, a.contentType)) continue;
    const text = bodyOf(a);
    if (!text) continue;
    const lines = text.trimEnd().split('\n');
    out.push(paint.bold(`    ${a.name}`));
    out.push(...indent(lines.slice(0, OTHER_LINES), '      '));
    if (lines.length > OTHER_LINES)
      out.push(paint.dim(`      … ${lines.length - OTHER_LINES} more lines in the report`));
    out.push('');
  }
  const replay = result.attachments.find((a) => a.name === 'replay');
  const replayText = replay ? bodyOf(replay) : undefined;
  if (replayText) {
    // The replay's commands whole; its curl lines are in the file the replay names.
    const commands = replayText.split('\n\nThe last request by hand')[0]!;
    out.push(paint.bold('    Reproduce'), ...indent(commands.trimEnd().split('\n'), '      '), '');
  }
  return out;
}
