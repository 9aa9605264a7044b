/**
 * The lines of a failed step's output that say why it failed, which npm test prints again after its
 * summary: a CI job's log is read from its end, and a step's own output may lie hundreds of lines above
 * it (the kill matrix lists its survivors before its 475 kills; Playwright its failures before the
 * rules line; node --test its failed subtests among the passed).
 */

/** Lines that name a failure in the outputs npm test's steps print. */
const FAILURE_LINE: readonly RegExp[] = [
  /✖/, // the kill matrix's survivors, its clean project's failures, an incomplete run; the CLIs' errors
  /^\s+\d+\) \S/, // Playwright's failed tests, numbered, each with its claim
  /^\s+Error: /,
  /^Rules \(.*\bviolated \(/, // the rules line, where it names violated rules
  /^History: failed/,
  /^\s*not ok \d+ - /, // node --test (TAP)
  /\berror TS\d+:/, // tsc
  /^\S+:\d+:\d+ \S.*━/, // biome's findings
];

/** How many lines are printed at most; the log has the rest. */
export const FAILURE_LINES_MAX = 30;

// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape sequence of a terminal colour
const ANSI = /\u001b\[[0-9;]*m/g;

/**
 * The lines of `output` that name a failure, in their order, then its last lines (the verdict a step
 * ends with), without colours, at most `max` of them.
 */
export function failureLines(output: string, max = FAILURE_LINES_MAX): string[] {
  const lines = output
    .replace(ANSI, '')
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '');
  const indent = (line: string): number => line.length - line.trimStart().length;
  // A ✖ line's next line, indented under it, is its reason (the dialect matrix's failed test's error).
  const named = lines.filter(
    (line, i) =>
      FAILURE_LINE.some((re) => re.test(line)) ||
      (i > 0 && lines[i - 1]!.includes('✖') && indent(line) > indent(lines[i - 1]!)),
  );
  const last = lines.slice(-3).filter((line) => !named.includes(line));
  const kept =
    named.length + last.length > max
      ? [...named.slice(0, max - last.length - 1), `… ${named.length - (max - last.length - 1)} more`]
      : named;
  return [...kept, ...last];
}
