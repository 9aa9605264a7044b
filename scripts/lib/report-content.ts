/**
 * What a rendered report embeds of a run's Allure results. The single-file report carries every
 * embedded file as base64 in one script the browser parses before it shows anything, so its size is
 * its opening time (every exchange of every test, whole, would make it slow to open).
 *
 * - Every exchange is a step named with its answer ("valid twin — POST /oauth/token → 200"); the
 *   one a failed check judged is marked failed (the mutant's 201, not the valid twin's).
 * - A test that did not pass (failed, broken, blocked or skipped) keeps every exchange's text in its
 *   step: a certifier reads its evidence. A passed test keeps its steps and checks without the
 *   exchanges' text: that is in the run folder's transcripts/ (redacted, one JSONL line per exchange),
 *   and `npm run report -- <run> --full` embeds it.
 * - A failed test's replay sits in a step "Reproduce" at its end, its rule outcomes in "Rule
 *   outcomes": not in Playwright's "After Hooks", where nobody looks. A failure's trace starts at
 *   the test's own line: the frames of the oracle that recorded it (checks/) are left out.
 * - Labels no reader uses (language, framework, package, titlePath) and repeated ones are dropped;
 *   Allure copies every label into each test's history of every later report.
 * - The overview's metadata starts with the rules (ledger/rule-summary.ts, from each test's rule
 *   outcomes label): assessed and violated out of the documented total, not assessed and why,
 *   assumptions not met; then every verdict of the tests counted on its own (passed, failed, skipped
 *   for a capability, blocked, inconclusive…, from each test's verdict label), and what the ring's
 *   percentage counts: Allure's leaves skipped tests out without saying so. What the run's history
 *   judged (its History results, runner/history.ts) counts in the rules and has a line of its own
 *   beside them, not among the tests.
 *
 * The run folder's allure-results are never changed: a slimmed copy is rendered.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnvInfo, stringifyEnvInfo } from 'allure-js-commons/sdk/reporter';
import {
  describeVerdicts,
  FAILED_ANSWER_LABEL,
  RULE_OUTCOMES_LABEL,
  ruleOutcomes,
  VERDICT_LABEL,
  VERDICT_WORDS,
  type RuleOutcome,
  type Verdict,
} from '../../ledger/outcomes';
import { rules as ledgerRules } from '../../ledger/rules';
import { describeSchemaMarks } from '../../ledger/iso-schema';
import { HISTORY_EPIC } from '../../runner/history';
import { HISTORY_PROPERTIES } from '../../checks/history';
import {
  describeRulesGlance,
  rulesAtAGlance,
  summariseRuleOutcomes,
  type RulesGlance,
} from '../../ledger/rule-summary';

export type ReportEvidence = 'full' | 'failures';

interface AllureAttachment {
  name: string;
  source: string;
  type: string;
}

interface AllureStep {
  name?: string;
  status?: string;
  steps?: AllureStep[];
  attachments?: AllureAttachment[];
  statusDetails?: { message?: string; trace?: string };
  [key: string]: unknown;
}

/** A stack frame in the suite's oracles (checks/): where every check fails, not where the test made it. */
const ORACLE_FRAME = /^\s*at .*[/\\]checks[/\\][^/\\]+\.ts:\d+:\d+\)?$/;

/** A failure's trace from the test's own line: the oracle's frames above it say nothing a reader needs. */
function fromTestLine<T extends AllureStep>(step: T): T {
  const trace = step.statusDetails?.trace;
  const steps = step.steps?.map(fromTestLine);
  if (!trace) return steps ? { ...step, steps } : step;
  const kept = trace
    .split('\n')
    .filter((line) => !ORACLE_FRAME.test(line))
    .join('\n');
  return { ...step, ...(steps ? { steps } : {}), statusDetails: { ...step.statusDetails, trace: kept } };
}

interface AllureResult extends AllureStep {
  labels?: { name: string; value: string }[];
  links?: { name?: string; url: string }[];
  historyId?: string;
  uuid?: string;
  stop?: number;
}

/** Labels allure-playwright writes that no view of this report shows or groups by, and the ones read here. */
const UNREAD_LABELS = new Set([
  'language',
  'framework',
  'package',
  'titlePath',
  FAILED_ANSWER_LABEL,
  RULE_OUTCOMES_LABEL,
]);

/** An exchange attachment (client/api.ts): "[label — ]METHOD /path → status". */
const EXCHANGE = /^(?:.* — )?([A-Z]+ \S+) → (\d{3})$/;

const isExchange = (a: AllureAttachment): boolean => a.type === 'text/plain' && EXCHANGE.test(a.name);

export interface SlimmedResults {
  /** Exchange attachments left out (their text is in the run's transcripts). */
  omitted: number;
  /** Tests whose exchanges were left out. */
  passedTests: number;
  /** Tests per verdict (a retried test counted once, by its last result). */
  verdicts: Partial<Record<Verdict, number>>;
  /** The links whose URL is not http(s) (a rule's section of the offline spec), by name: the page makes them work (scripts/lib/report-page.ts). */
  localLinks: Record<string, string>;
  /** Each profile's rules at a glance, from its tests' rule outcomes. */
  rules: ProjectRules[];
}

const WORDS_TO_VERDICT = new Map(Object.entries(VERDICT_WORDS).map(([verdict, words]) => [words, verdict as Verdict]));

/** A result's verdict: its verdict label (fixtures/reporting.ts), else what its status says. */
function verdictOfResult(result: AllureResult): Verdict {
  const label = result.labels?.find((l) => l.name === VERDICT_LABEL)?.value;
  const known = label === undefined ? undefined : WORDS_TO_VERDICT.get(label);
  if (known) return known;
  return result.status === 'passed' ? 'passed' : result.status === 'skipped' ? 'skipped' : 'failed';
}

/** A profile's rules at a glance (ledger/rule-summary.ts): what the overview and its title start with. */
export interface ProjectRules {
  /** The project (profile) the tests ran under: the results' parentSuite label. */
  project: string;
  glance: RulesGlance;
  /** What the run's history judged, one entry per property it exercised (its History results). */
  history: JudgedProperty[];
}

/** One History result as the overview names it: the property, its verdict, the rules it found violated. */
export interface JudgedProperty {
  property: string;
  verdict: Verdict;
  violated: string[];
}

/** The overview's history line: each property by what it found, where its results are. */
export function describeHistory(judged: readonly JudgedProperty[]): string | undefined {
  if (!judged.length) return undefined;
  const order = (p: JudgedProperty): number => HISTORY_PROPERTIES.findIndex((x) => x.property === p.property);
  const history = [...judged].sort((a, b) => order(a) - order(b));
  const names = (ps: readonly JudgedProperty[]): string => ps.map((p) => p.property).join(', ');
  const violated = history.filter((p) => p.verdict === 'failed');
  const passed = history.filter((p) => p.verdict === 'passed');
  const other = history.filter((p) => p.verdict !== 'failed' && p.verdict !== 'passed');
  return [
    ...violated.map((p) => `${p.property} violated (${p.violated.join(', ')})`),
    ...(passed.length ? [`${names(passed)} passed`] : []),
    ...(other.length ? [`${names(other)} undecided`] : []),
  ]
    .join('; ')
    .concat(` (results under ${HISTORY_EPIC})`);
}

/** The overview's title: the report's name, then each profile's rules assessed and violated. */
export const rulesTitle = (rules: readonly ProjectRules[]): string =>
  rules
    .map(({ project, glance }) => `${rules.length > 1 ? `${project}: ` : ''}${describeRulesGlance(glance)[0]}`)
    .join('; ');

/**
 * The overview's metadata: the rules first (assessed, violated, not assessed and why, assumptions not
 * met), then every verdict of the tests counted on its own, then what the reporter recorded about the run.
 */
function environmentOverview(
  from: string,
  verdicts: Partial<Record<Verdict, number>>,
  evidence: ReportEvidence,
  rules: readonly ProjectRules[],
): string {
  const file = path.join(from, 'environment.properties');
  const recorded = existsSync(file) ? parseEnvInfo(readFileSync(file, 'utf8')) : {};
  const overview: Record<string, string> = {};
  for (const { project, glance, history } of rules) {
    const of = rules.length > 1 ? ` (${project})` : '';
    const [assessed, ...rest] = describeRulesGlance(glance);
    overview[`rules${of}`] = assessed!;
    for (const line of rest)
      overview[`${line.includes('assumptions') ? 'assumptions' : 'rules not assessed'}${of}`] = line;
    const judged = describeHistory(history);
    if (judged) overview[`run's history${of}`] = judged;
  }
  overview['ISO 20022 schema'] = describeSchemaMarks(ledgerRules);
  overview.tests = describeVerdicts(verdicts);
  // Allure's ring is passed ÷ (passed + failed + broken): skipped, blocked and not applicable tests are not in it.
  overview['the ring'] = '% passed of the passed and failed tests (skipped and blocked ones are not in it)';
  // Where a passed test's exchanges are, for a reader who looks for them on its page.
  if (evidence === 'failures')
    overview.exchanges =
      "attached to tests that did not pass; every one in the run folder's transcripts/ (npm run report -- <run> --full embeds them)";
  return stringifyEnvInfo({ ...overview, ...recorded });
}

/** A result's rule outcomes: its label (fixtures/reporting.ts), else what its rule tags and status say. */
function outcomesOfResult(result: AllureResult): { outcomes: RuleOutcome[]; assumptionsNotMet: string[] } {
  const label = result.labels?.find((l) => l.name === RULE_OUTCOMES_LABEL)?.value;
  if (label)
    try {
      return JSON.parse(label) as { outcomes: RuleOutcome[]; assumptionsNotMet: string[] };
    } catch {}
  const tags = (result.labels ?? []).filter((l) => l.name === 'tag').map((l) => l.value);
  const status = result.status === 'passed' ? 'passed' : result.status === 'skipped' ? 'skipped' : 'failed';
  return { outcomes: ruleOutcomes({ tags, annotations: [], status }), assumptionsNotMet: [] };
}

/** Where a reader looks for what reruns a failed test, and for its rules one by one: not in Playwright's "After Hooks". */
export const REPRODUCE_STEP = 'Reproduce';
export const RULE_OUTCOMES_STEP = 'Rule outcomes';
/** The fixtures' attachments that get a step of their own at the end of the test (fixtures/api.ts, fixtures/reporting.ts). */
const MOVED_ATTACHMENTS: Readonly<Record<string, string>> = {
  replay: REPRODUCE_STEP,
  'rule outcomes': RULE_OUTCOMES_STEP,
};

/** The attachment of an exchange's step: the request and the answer, redacted (transport/transcript.ts). */
export const EXCHANGE_TEXT = 'request and answer';

/** Playwright's hook steps: kept only when they carry something a reader needs (an error, a step, an attachment). */
const HOOKS = new Set(['Before Hooks', 'After Hooks']);

/**
 * One exchange, one step named with its answer. allure-playwright puts an attachment in a step of
 * its own named like the attachment, inside the step that made the request ("valid twin — POST
 * /oauth/token", whose attachment is "valid twin — POST /oauth/token → 200"): that pair becomes
 * one step, "valid twin — POST /oauth/token → 200", holding the exchange (`keep`) or not (a passed
 * test's exchange text is left to the run's transcripts: `omitted`). An exchange adopted from the
 * background stays a step named by its attachment ("pay (pool) — POST /payments/pacs008/v10 → 201").
 */
function answeredSteps(steps: AllureStep[], keep: boolean, omitted: Set<string>): AllureStep[] {
  const out: AllureStep[] = [];
  for (const step of steps) {
    const attachments = step.attachments ?? [];
    const dropped = keep ? [] : attachments.filter(isExchange);
    for (const a of dropped) omitted.add(a.source);
    const kept: AllureStep = {
      ...step,
      attachments: attachments.filter((a) => !dropped.includes(a)),
      steps: answeredSteps(step.steps ?? [], keep, omitted),
    };
    // The attachment's own step: no status of its own, one exchange, nothing else.
    const only = kept.steps!.length === 1 ? kept.steps![0]! : undefined;
    const answer =
      only && only.status === undefined && !only.steps?.length && (only.attachments?.length ?? 0) <= 1
        ? EXCHANGE.exec(only.name ?? '')
        : null;
    if (only && answer && only.name === `${step.name} → ${answer[2]}`) {
      kept.name = only.name;
      // Named apart from its step: Allure shows a step whose one attachment bears its name as that attachment, without the step's status.
      kept.attachments = [
        ...kept.attachments!,
        ...(only.attachments ?? []).map((a) => ({ ...a, name: EXCHANGE_TEXT })),
      ];
      kept.steps = [];
    }
    if (HOOKS.has(kept.name ?? '') && !kept.steps!.length && !kept.attachments!.length && kept.status === 'passed')
      continue;
    out.push(kept);
  }
  return out;
}

/**
 * The step of each exchange a failed check judged (its `failed answer` label, fixtures/reporting.ts)
 * is marked failed: a mutant's 201 is the failure, not the valid twin's. When one title names several
 * exchanges (a status read polled), the last one before the failed check is the one judged.
 */
function markFailedAnswers(steps: AllureStep[], titles: readonly string[]): void {
  if (!titles.length) return;
  const flat: AllureStep[] = [];
  const walk = (list: AllureStep[]): void => {
    for (const s of list) {
      flat.push(s);
      walk(s.steps ?? []);
    }
  };
  walk(steps);
  for (const title of new Set(titles)) {
    const at = flat.map((s, i) => (s.name === title ? i : -1)).filter((i) => i >= 0);
    if (!at.length) continue;
    const failedCheck = flat.findIndex((s, i) => i > at[0]! && s.status === 'failed' && !EXCHANGE.test(s.name ?? ''));
    const judged = at.filter((i) => failedCheck < 0 || i < failedCheck).at(-1) ?? at.at(-1)!;
    flat[judged]!.status = 'failed';
  }
}

/** The replay and the rule outcomes leave "After Hooks" for steps of their own at the end of the test. */
function movedAttachmentSteps(steps: AllureStep[]): AllureStep[] {
  const moved: AllureStep[] = [];
  const take = (list: AllureStep[]): AllureStep[] =>
    list.flatMap((s) => {
      const attachment = s.attachments?.length === 1 && !s.steps?.length ? s.attachments[0]! : undefined;
      const title = attachment && s.status === undefined ? MOVED_ATTACHMENTS[attachment.name] : undefined;
      if (title) {
        moved.push({ ...s, name: title, status: 'passed', attachments: [attachment!] });
        return [];
      }
      return [{ ...s, steps: take(s.steps ?? []) }];
    });
  const kept = take(steps).filter(
    (s) => !(HOOKS.has(s.name ?? '') && !s.steps?.length && !s.attachments?.length && s.status === 'passed'),
  );
  return [...kept, ...moved];
}

function slimLabels(result: AllureResult): void {
  if (!result.labels) return;
  const seen = new Set<string>();
  result.labels = result.labels.filter((l) => {
    const key = `${l.name}\u0000${l.value}`;
    if (UNREAD_LABELS.has(l.name) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Writes into `to` the Allure results of `from` as the report embeds them (see the module comment). */
export function reportResults(from: string, to: string, evidence: ReportEvidence): SlimmedResults {
  mkdirSync(to, { recursive: true });
  const omitted = new Set<string>();
  const localLinks: Record<string, string> = {};
  let passedTests = 0;
  const last = new Map<
    string,
    {
      stop: number;
      verdict: Verdict;
      project: string;
      name: string;
      outcomes: RuleOutcome[];
      assumptionsNotMet: string[];
      /** The History property a History result judged (its feature), not a test. */
      historyProperty?: string;
    }
  >();
  const files = readdirSync(from);
  for (const file of files.filter((f) => f.endsWith('-result.json'))) {
    const result = JSON.parse(readFileSync(path.join(from, file), 'utf8')) as AllureResult;
    const failedAnswers = (result.labels ?? []).filter((l) => l.name === FAILED_ANSWER_LABEL).map((l) => l.value);
    for (const link of result.links ?? [])
      if (!/^https?:/i.test(link.url)) localLinks[link.name ?? link.url] = link.url;
    const key = result.historyId ?? result.uuid ?? file;
    if ((last.get(key)?.stop ?? -Infinity) <= (result.stop ?? 0))
      last.set(key, {
        stop: result.stop ?? 0,
        verdict: verdictOfResult(result),
        project: result.labels?.find((l) => l.name === 'parentSuite')?.value ?? '',
        name: result.name ?? key,
        ...outcomesOfResult(result),
        ...(result.labels?.some((l) => l.name === 'epic' && l.value === HISTORY_EPIC)
          ? { historyProperty: result.labels.find((l) => l.name === 'feature')?.value ?? result.name ?? key }
          : {}),
      });
    slimLabels(result);
    const keep = evidence === 'full' || result.status !== 'passed';
    const before = omitted.size;
    result.steps = movedAttachmentSteps(answeredSteps(result.steps ?? [], keep, omitted)).map(fromTestLine);
    if (result.statusDetails?.trace) result.statusDetails = fromTestLine(result).statusDetails;
    markFailedAnswers(result.steps, failedAnswers);
    if (!keep) {
      for (const a of (result.attachments ?? []).filter(isExchange)) omitted.add(a.source);
      result.attachments = (result.attachments ?? []).filter((a) => !isExchange(a));
      if (omitted.size > before) passedTests++;
    }
    writeFileSync(path.join(to, file), JSON.stringify(result));
  }
  for (const file of files) {
    if (file.endsWith('-result.json') || file === 'environment.properties' || omitted.has(file)) continue;
    copyFileSync(path.join(from, file), path.join(to, file));
  }
  const verdicts: Partial<Record<Verdict, number>> = {};
  for (const { verdict, historyProperty } of last.values())
    if (historyProperty === undefined) verdicts[verdict] = (verdicts[verdict] ?? 0) + 1;
  const projects = [...new Set([...last.values()].map((t) => t.project))].sort();
  const rules = projects.map((project): ProjectRules => {
    const tests = [...last.values()].filter((t) => t.project === project);
    return {
      project,
      glance: rulesAtAGlance(
        summariseRuleOutcomes(
          ledgerRules,
          tests.map((t) => ({ test: t.name, outcomes: t.outcomes })),
        ),
        tests.flatMap((t) => t.assumptionsNotMet),
      ),
      history: tests.flatMap((t) =>
        t.historyProperty === undefined
          ? []
          : [
              {
                property: t.historyProperty,
                verdict: t.verdict,
                violated: t.outcomes.filter((o) => o.status === 'failed').map((o) => o.rule),
              },
            ],
      ),
    };
  });
  writeFileSync(path.join(to, 'environment.properties'), environmentOverview(from, verdicts, evidence, rules));
  return { omitted: omitted.size, passedTests, verdicts, localLinks, rules };
}
