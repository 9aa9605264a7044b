/**
 * What a rendered report embeds of a run's Allure results. The single-file report carries every
 * embedded file as base64 in one script the browser parses before it shows anything, so its size is
 * its opening time (a full local run: 19.8 MB, every exchange of 600 tests).
 *
 * - A test that did not pass (failed, broken, blocked or skipped) keeps everything: a certifier reads
 *   its evidence.
 * - A passed test keeps its steps and checks, and every exchange as a step named with its answer
 *   ("valid twin — POST /oauth/token → 200"), without the exchange's text: that is in the run
 *   folder's transcripts/ (redacted, one JSONL line per exchange), and `npm run report -- <run> --full`
 *   embeds it.
 * - Labels no reader uses (language, framework, package, titlePath) and repeated ones are dropped;
 *   Allure copies every label into each test's history of every later report.
 * - The overview's metadata starts with every verdict counted on its own (passed, failed, skipped
 *   for a capability, blocked, inconclusive…, from each test's verdict label), and says what the
 *   ring's percentage counts: Allure's leaves skipped tests out without saying so.
 *
 * The run folder's allure-results are never changed: a slimmed copy is rendered.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnvInfo, stringifyEnvInfo } from 'allure-js-commons/sdk/reporter';
import { VERDICT_LABEL, VERDICT_WORDS, type Verdict } from '../../ledger/outcomes';

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
  [key: string]: unknown;
}

interface AllureResult extends AllureStep {
  labels?: { name: string; value: string }[];
  historyId?: string;
  uuid?: string;
  stop?: number;
}

/** Labels allure-playwright writes that no view of this report shows or groups by. */
const UNREAD_LABELS = new Set(['language', 'framework', 'package', 'titlePath']);

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
}

const WORDS_TO_VERDICT = new Map(Object.entries(VERDICT_WORDS).map(([verdict, words]) => [words, verdict as Verdict]));

/** A result's verdict: its verdict label (fixtures/reporting.ts), else what its status says. */
function verdictOfResult(result: AllureResult): Verdict {
  const label = result.labels?.find((l) => l.name === VERDICT_LABEL)?.value;
  const known = label === undefined ? undefined : WORDS_TO_VERDICT.get(label);
  if (known) return known;
  return result.status === 'passed' ? 'passed' : result.status === 'skipped' ? 'skipped' : 'failed';
}

/** The overview's metadata: the verdict counts first, then what the reporter recorded about the run. */
function environmentWithVerdicts(
  from: string,
  verdicts: Partial<Record<Verdict, number>>,
  evidence: ReportEvidence,
): string {
  const file = path.join(from, 'environment.properties');
  const recorded = existsSync(file) ? parseEnvInfo(readFileSync(file, 'utf8')) : {};
  // Short keys: the overview cuts a key at about 16 characters; the value says the rest.
  const n = (v: Verdict): number => verdicts[v] ?? 0;
  const counted: Record<string, string> = {
    passed: String(n('passed')),
    failed: String(n('failed')),
    skipped: `${n('capability')} (a capability is missing)`,
    blocked: `${n('blocked')} (an assumption or rule failed)`,
    inconclusive: String(n('inconclusive')),
  };
  if (n('not-applicable')) counted['not applicable'] = String(n('not-applicable'));
  if (n('skipped')) counted['skipped, other'] = String(n('skipped'));
  // Allure's ring is passed ÷ (passed + failed + broken): skipped, blocked and not applicable tests are not in it.
  counted['ring %'] = 'passed ÷ (passed + failed)';
  // Where a passed test's exchanges are, for a reader who looks for them on its page.
  if (evidence === 'failures')
    counted.exchanges =
      "attached to tests that did not pass; every one in the run folder's transcripts/ (npm run report -- <run> --full embeds them)";
  return stringifyEnvInfo({ ...counted, ...recorded });
}

/**
 * A passed test's steps without exchange text. allure-playwright puts an attachment in a step of its
 * own named like the attachment, inside the step that made the request: that pair becomes one step,
 * "valid twin — POST /oauth/token → 200". An exchange adopted from the background stays a step named
 * by its attachment ("pay (pool) — POST /payments/pacs008/v10 → 201").
 */
function withoutExchanges(steps: AllureStep[], omitted: Set<string>): AllureStep[] {
  const out: AllureStep[] = [];
  for (const step of steps) {
    const attachments = step.attachments ?? [];
    const exchanges = attachments.filter(isExchange);
    for (const a of exchanges) omitted.add(a.source);
    const kept: AllureStep = {
      ...step,
      attachments: attachments.filter((a) => !isExchange(a)),
      steps: withoutExchanges(step.steps ?? [], omitted),
    };
    // The attachment's own step: no status of its own, one exchange, nothing else.
    const only = kept.steps!.length === 1 ? kept.steps![0]! : undefined;
    const answer =
      only && only.status === undefined && !only.steps?.length && !only.attachments?.length
        ? EXCHANGE.exec(only.name ?? '')
        : null;
    if (answer && step.name?.endsWith(answer[1]!)) {
      kept.name = `${step.name} → ${answer[2]}`;
      kept.steps = [];
    }
    // Playwright's empty hook steps carry nothing a reader needs.
    if (
      (kept.name === 'Before Hooks' || kept.name === 'After Hooks') &&
      !kept.steps!.length &&
      !kept.attachments!.length &&
      kept.status === 'passed'
    )
      continue;
    out.push(kept);
  }
  return out;
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
  let passedTests = 0;
  const last = new Map<string, { stop: number; verdict: Verdict }>();
  const files = readdirSync(from);
  for (const file of files.filter((f) => f.endsWith('-result.json'))) {
    const result = JSON.parse(readFileSync(path.join(from, file), 'utf8')) as AllureResult;
    slimLabels(result);
    const key = result.historyId ?? result.uuid ?? file;
    if ((last.get(key)?.stop ?? -Infinity) <= (result.stop ?? 0))
      last.set(key, { stop: result.stop ?? 0, verdict: verdictOfResult(result) });
    if (evidence === 'failures' && result.status === 'passed') {
      const before = omitted.size;
      result.steps = withoutExchanges(result.steps ?? [], omitted);
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
  for (const { verdict } of last.values()) verdicts[verdict] = (verdicts[verdict] ?? 0) + 1;
  writeFileSync(path.join(to, 'environment.properties'), environmentWithVerdicts(from, verdicts, evidence));
  return { omitted: omitted.size, passedTests, verdicts };
}
