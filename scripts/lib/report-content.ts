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
 *
 * The run folder's allure-results are never changed: a slimmed copy is rendered.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

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
}

/** Labels allure-playwright writes that no view of this report shows or groups by. */
const UNREAD_LABELS = new Set(['language', 'framework', 'package', 'titlePath']);

/** An exchange attachment (fixtures/api.ts): "[label — ]METHOD /path → status". */
const EXCHANGE = /^(?:.* — )?([A-Z]+ \S+) → (\d{3})$/;

const isExchange = (a: AllureAttachment): boolean => a.type === 'text/plain' && EXCHANGE.test(a.name);

export interface SlimmedResults {
  /** Exchange attachments left out (their text is in the run's transcripts). */
  omitted: number;
  /** Tests whose exchanges were left out. */
  passedTests: number;
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
    const kept: AllureStep = { ...step, attachments: attachments.filter((a) => !isExchange(a)), steps: withoutExchanges(step.steps ?? [], omitted) };
    // The attachment's own step: no status of its own, one exchange, nothing else.
    const only = kept.steps!.length === 1 ? kept.steps![0]! : undefined;
    const answer = only && only.status === undefined && !only.steps?.length && !only.attachments?.length ? EXCHANGE.exec(only.name ?? '') : null;
    if (answer && step.name?.endsWith(answer[1]!)) {
      kept.name = `${step.name} → ${answer[2]}`;
      kept.steps = [];
    }
    // Playwright's empty hook steps carry nothing a reader needs.
    if ((kept.name === 'Before Hooks' || kept.name === 'After Hooks') && !kept.steps!.length && !kept.attachments!.length && kept.status === 'passed') continue;
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
  const files = readdirSync(from);
  for (const file of files.filter((f) => f.endsWith('-result.json'))) {
    const result = JSON.parse(readFileSync(path.join(from, file), 'utf8')) as AllureResult;
    slimLabels(result);
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
    if (file.endsWith('-result.json') || omitted.has(file)) continue;
    copyFileSync(path.join(from, file), path.join(to, file));
  }
  return { omitted: omitted.size, passedTests };
}
