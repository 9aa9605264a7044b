/**
 * The run's history at the run's end (and for `npm run history -- <run>`): every project's history
 * judged as one (checks/history.ts), kept in the run folder (history.json, run.json's `history`),
 * shown in the report as results of their own (epic "History", one per property, citing its rules,
 * the proving sub-history attached) and in the terminal as one "History" block. A violation fails
 * the run; an undecided judgement (only indeterminate requests would break it) is shown, never failed,
 * and leaves its property inconclusive only when it is all the property has.
 */
import { randomUUID, createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { checkHistory, type HistoryVerdict, type PropertyResult } from '../checks/history';
import { readRunHistory, RUNNER_WORKER, type EvidenceLine, type HistoryRecord } from '../record/history';
import { specLinkFor } from '../record/spec-links';
import { ruleOf } from '../ledger/rules';
import { RULE_OUTCOMES_LABEL, VERDICT_LABEL, VERDICT_WORDS, type RuleOutcome } from '../ledger/outcomes';
import type { TestOutcomes } from '../ledger/rule-summary';

export const HISTORY_VERDICT_FILE = 'history.json';

/** The report's epic of the History results: one result per property the run's history exercised. */
export const HISTORY_EPIC = 'History';

const judged = new Map<string, HistoryVerdict[]>();

/**
 * Every project's history of the run, judged once per process: the terminal's summary and the run's
 * record both ask at the end of the run, whichever first.
 */
export function judgeRunHistory(runDir: string): HistoryVerdict[] {
  const key = path.resolve(runDir);
  let verdicts = judged.get(key);
  if (!verdicts) {
    verdicts = [...readRunHistory(runDir).values()].map((workers) => checkHistory(workers));
    judged.set(key, verdicts);
  }
  return verdicts;
}

/**
 * What one project's history says of each rule it judged, as a test's rule outcomes are read
 * (ledger/rule-summary.ts): a violated rule failed, a rule it judged and found held passed. A rule of
 * the property it never judged (no cross-client msgId for XCL-01, no repeated return for RTR-05) and
 * an undecided property say nothing either way; the tests' outcomes stand.
 */
export function historyRuleOutcomes(verdict: HistoryVerdict): TestOutcomes[] {
  return verdict.properties
    .filter((p) => p.status === 'passed' || p.status === 'failed')
    .map((p) => ({ test: `the run's history (${p.property})`, outcomes: propertyRuleOutcomes(p) }));
}

/** Only the rules the history judged: one never judged, or judged undecided every time, is left out. */
function propertyRuleOutcomes(p: PropertyResult): RuleOutcome[] {
  const said = [...new Set([...p.decidedRules, ...Object.keys(p.violationsByRule)])].filter(
    (rule) => !p.undecidedRules.includes(rule),
  );
  return said.map((rule): RuleOutcome => {
    const count = p.violationsByRule[rule] ?? 0;
    if (!count) return { rule, status: 'passed' };
    const v = p.violations.find((x) => x.rule === rule);
    const why = v ? `${v.what}: expected ${v.expected}; received ${v.received}` : "violated in the run's history";
    return { rule, status: 'failed', why: count > 1 ? `${why} (${count} violations)` : why };
  });
}

const shown = new Set<string>();

/** The History block for the terminal, once per run: the summary shows it; without the summary (`--reporter`), the record does when it failed. */
export function showHistory(runDir: string): string[] {
  shown.add(path.resolve(runDir));
  return historyBlock(judgeRunHistory(runDir), runDir);
}

export const historyShown = (runDir: string): boolean => shown.has(path.resolve(runDir));

export const historyFailed = (verdicts: readonly HistoryVerdict[]): boolean =>
  verdicts.some((v) => v.status === 'failed');

const overall = (verdicts: readonly HistoryVerdict[]): HistoryRecord['status'] =>
  historyFailed(verdicts) ? 'failed' : verdicts.some((v) => v.status === 'inconclusive') ? 'inconclusive' : 'passed';

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

const sum = (verdicts: readonly HistoryVerdict[], of: (v: HistoryVerdict) => number): number =>
  verdicts.reduce((n, v) => n + of(v), 0);

const violationsOf = (v: HistoryVerdict): number => v.properties.reduce((n, p) => n + p.violationCount, 0);
const undecidedOf = (v: HistoryVerdict): number => v.properties.reduce((n, p) => n + p.undecidedCount, 0);

/** What run.json keeps: the status, the counts, and each violation with its evidence. */
export function historyRecord(verdicts: readonly HistoryVerdict[]): HistoryRecord {
  return {
    status: overall(verdicts),
    file: HISTORY_VERDICT_FILE,
    requests: sum(verdicts, (v) => v.requests),
    indeterminate: sum(verdicts, (v) => v.indeterminate.count),
    violations: sum(verdicts, violationsOf),
    undecided: sum(verdicts, undecidedOf),
    checkedInMs: sum(verdicts, (v) => v.checkedInMs),
    projects: verdicts.map((v) => ({
      project: v.project,
      status: v.status,
      requests: v.requests,
      indeterminate: v.indeterminate.count,
      properties: Object.fromEntries(v.properties.map((p) => [p.property, p.status])),
      undecided: v.properties.flatMap((p) =>
        p.undecided.map(({ property, rule, test, what, why }) => ({ property, rule, test, what, why })),
      ),
      violations: v.properties.flatMap((p) =>
        p.violations.map(({ property, rule, what, expected, received, evidence }) => ({
          property,
          rule,
          what,
          expected,
          received,
          evidence,
        })),
      ),
    })),
  };
}

/** The whole verdict, next to the history it judged. */
export function writeHistoryVerdict(runDir: string, verdicts: readonly HistoryVerdict[]): string {
  const file = path.join(runDir, HISTORY_VERDICT_FILE);
  writeFileSync(file, `${JSON.stringify({ status: overall(verdicts), projects: verdicts }, null, 2)}\n`);
  return file;
}

// ── words ───────────────────────────────────────────────────────────────────────────────────────

const sender = (worker: number): string => (worker === RUNNER_WORKER ? 'runner' : `worker ${worker}`);

/** A proving sub-history in lines a terminal shows whole: when, worker, who, the request, the answer. */
export function evidenceText(lines: readonly EvidenceLine[], indent = '    '): string[] {
  return lines.flatMap((l) => [
    `${indent}${l.at}  ${sender(l.worker)}  ${l.by}`,
    `${indent}  ${l.request}`,
    `${indent}  → ${l.answer}${l.indeterminate ? '  [indeterminate: maybe applied]' : ''}`,
  ]);
}

const MARK: Record<PropertyResult['status'], string> = {
  passed: '✓',
  failed: '✖',
  inconclusive: '?',
  'not exercised': '-',
};

/** One property's result in words: its violations (with evidence) or what left it undecided. */
export function propertyText(p: PropertyResult, indent = '  '): string[] {
  const open =
    p.status === 'passed' && p.undecidedCount
      ? ` (${p.undecidedCount} undecided, inconclusive for their tests alone)`
      : '';
  const out = [
    `${indent}${MARK[p.status]} ${p.property.padEnd(10)} ${p.status}${p.status === 'not exercised' ? '' : `, ${p.checked} checked`}${open}: ${p.title}`,
  ];
  for (const v of p.violations) {
    out.push(`${indent}  ✖ ${v.rule} ${v.what}`, `${indent}    expected ${v.expected}; received ${v.received}`);
    out.push(...evidenceText(v.evidence, `${indent}      `));
  }
  if (p.violationCount > p.violations.length)
    out.push(`${indent}  … and ${p.violationCount - p.violations.length} more violations (history.json)`);
  for (const u of p.undecided) {
    out.push(`${indent}  ? ${u.rule} ${u.what}: undecided, ${u.why} (evidence of ${u.test})`);
    out.push(...evidenceText(u.evidence, `${indent}      `));
  }
  if (p.undecidedCount > p.undecided.length)
    out.push(`${indent}  … and ${p.undecidedCount - p.undecided.length} more undecided (history.json)`);
  return out;
}

/**
 * The terminal's "History" block: one line with the totals and each property's mark, then the
 * properties that failed or were undecided with their proving sub-histories (per project when the
 * run has several), and the indeterminate POSTs. A small function of its own, so any layout of the
 * summary can place it.
 */
export function historyBlock(verdicts: readonly HistoryVerdict[], runDir?: string): string[] {
  if (!verdicts.length) return [];
  const status = overall(verdicts);
  const violations = sum(verdicts, violationsOf);
  const undecided = sum(verdicts, undecidedOf);
  const indeterminate = sum(verdicts, (v) => v.indeterminate.count);
  const several = verdicts.length > 1;
  const marks = several
    ? `${verdicts.filter((v) => v.status === 'passed').length} of ${verdicts.length} projects passed`
    : verdicts[0]!.properties
        .map(
          (p) =>
            `${MARK[p.status]} ${p.property}${p.status === 'not exercised' ? ' (not exercised)' : ` ${p.checked}`}`,
        )
        .join(', ');
  const lines = [
    `History: ${status === 'failed' ? `FAILED, ${violations} violation${violations === 1 ? '' : 's'}` : status}${undecided ? `, ${undecided} undecided` : ''} — ${sum(verdicts, (v) => v.requests)} requests of ${plural(
      sum(verdicts, (v) => v.workers),
      'worker',
    )} as one history, ${indeterminate} indeterminate POSTs, checked in ${sum(verdicts, (v) => v.checkedInMs)} ms: ${marks}`,
  ];
  for (const v of verdicts) {
    const shown = v.properties.filter((p) => p.status === 'failed' || p.status === 'inconclusive' || p.undecidedCount);
    if (several && shown.length) lines.push(`  ${v.project}: ${v.status}`);
    for (const p of shown) lines.push(...propertyText(p, several ? '    ' : '  '));
    if (!several && v.indeterminate.count) {
      lines.push(
        `  indeterminate POSTs (no answer or a 5xx: maybe applied, taken both ways): ${v.indeterminate.count}, e.g.`,
      );
      lines.push(...evidenceText(v.indeterminate.shown.slice(0, 3), '    '));
    }
  }
  if (runDir && status !== 'passed')
    lines.push(`  the whole verdict: ${path.relative(process.cwd(), path.join(runDir, HISTORY_VERDICT_FILE))}`);
  return lines;
}

// ── the report ──────────────────────────────────────────────────────────────────────────────────

const ALLURE_STATUS: Record<PropertyResult['status'], string> = {
  passed: 'passed',
  failed: 'failed',
  inconclusive: 'skipped',
  'not exercised': 'skipped',
};

const VERDICT_OF: Record<PropertyResult['status'], keyof typeof VERDICT_WORDS> = {
  passed: 'passed',
  failed: 'failed',
  inconclusive: 'inconclusive',
  'not exercised': 'skipped',
};

/** Each violation (and undecided case) as a step, its sub-history as steps in order: the report's test body reads as the proof. */
function evidenceSteps(p: PropertyResult, at: number): Record<string, unknown>[] {
  const step = (name: string, status: string, steps: Record<string, unknown>[] = []) => ({
    name,
    status,
    stage: 'finished',
    start: at,
    stop: at,
    steps,
    attachments: [],
    parameters: [],
  });
  // The last request of a violation is where it broke; an indeterminate one is neither passed nor failed.
  const lines = (evidence: readonly EvidenceLine[], broke: boolean) =>
    evidence.map((l, i) =>
      step(
        `${l.at} · ${sender(l.worker)} · ${l.by} — ${l.request} → ${l.answer}${l.indeterminate ? ' [indeterminate: maybe applied]' : ''}`,
        l.indeterminate ? 'unknown' : broke && i === evidence.length - 1 ? 'failed' : 'passed',
      ),
    );
  return [
    ...p.violations.map((v) =>
      step(`${v.rule} ${v.what}: expected ${v.expected}; received ${v.received}`, 'failed', lines(v.evidence, true)),
    ),
    ...p.undecided.map((u) => step(`${u.rule} ${u.what}: undecided, ${u.why}`, 'skipped', lines(u.evidence, false))),
  ];
}

/** One Allure result per project and property exercised (epic History), its proving sub-history attached. */
export function writeHistoryAllure(
  resultsDir: string,
  verdicts: readonly HistoryVerdict[],
  options: { specUrl?: string; at?: number } = {},
): number {
  mkdirSync(resultsDir, { recursive: true });
  const at = options.at ?? Date.now();
  let written = 0;
  for (const v of verdicts) {
    // A property the run gave nothing to judge has no result: a one-test run's report is not padded with skips.
    for (const p of v.properties.filter((x) => x.status !== 'not exercised')) {
      const uuid = randomUUID();
      const failedRules = [...new Set(p.violations.map((x) => x.rule))];
      const stories = failedRules.length ? failedRules : p.rules;
      const historyId = createHash('md5').update(`history|${v.project}|${p.property}`).digest('hex');
      const text = [
        `${p.property}: ${p.title}`,
        `${v.project}: ${v.requests} requests of ${v.workers} workers, ${v.indeterminate.count} indeterminate POSTs (maybe applied, taken both ways)`,
        '',
        ...propertyText(p, ''),
      ].join('\n');
      const attachment = `${uuid}-history-attachment.txt`;
      writeFileSync(path.join(resultsDir, attachment), text);
      const message =
        p.status === 'failed'
          ? p.violations.map((x) => `${x.rule} ${x.what}: expected ${x.expected}; received ${x.received}`).join('\n')
          : p.status === 'inconclusive'
            ? `undecided: ${p.undecided[0]?.why ?? ''}`
            : `${p.checked} checked over the run's history${p.undecidedCount ? `; ${p.undecidedCount} undecided, inconclusive for the evidence of ${[...new Set(p.undecided.map((u) => u.test))].join(', ')} alone` : ''}`;
      const result = {
        uuid,
        historyId,
        testCaseId: historyId,
        name: `${p.property}: ${p.title}`,
        fullName: `history › ${v.project} › ${p.property}`,
        status: ALLURE_STATUS[p.status],
        statusDetails: { message },
        stage: 'finished',
        start: at,
        stop: at,
        steps: evidenceSteps(p, at),
        attachments: [
          { name: p.violations.length ? 'proving sub-history' : 'history', source: attachment, type: 'text/plain' },
        ],
        parameters: [{ name: 'Project', value: v.project }],
        labels: [
          { name: 'epic', value: HISTORY_EPIC },
          { name: 'feature', value: p.property },
          ...stories.map((id) => ({ name: 'story', value: `${id} ${ruleOf(id).statement}` })),
          ...p.rules.map((id) => ({ name: 'tag', value: id })),
          { name: 'severity', value: 'critical' },
          { name: VERDICT_LABEL, value: VERDICT_WORDS[VERDICT_OF[p.status]] },
          // The report's rules at a glance count what the history judged as they count a test's checks.
          ...(p.status === 'passed' || p.status === 'failed'
            ? [
                {
                  name: RULE_OUTCOMES_LABEL,
                  value: JSON.stringify({ outcomes: propertyRuleOutcomes(p), assumptionsNotMet: [] }),
                },
              ]
            : []),
          { name: 'parentSuite', value: v.project },
          { name: 'suite', value: 'history' },
        ],
        links: p.rules.map((id) => {
          const [url, name] = specLinkFor(ruleOf(id).section, id, options.specUrl);
          return { url, name };
        }),
      };
      writeFileSync(path.join(resultsDir, `${uuid}-result.json`), JSON.stringify(result));
      written++;
    }
  }
  return written;
}
