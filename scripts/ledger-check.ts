/**
 * `npm run ledger [-- --project local[,other]] [--strict]`: proves that the tests and the rule
 * ledger agree. It lists the tests (Playwright --list: no server is started, nothing is sent), then
 *   - fails when a test cites a rule ID the ledger does not have (a typo silently covers nothing);
 *   - lists every (rule, operation) pair no test covers (--strict makes them a failure: npm test);
 *   - fails when two tests under one operation of the report share a title (a reader cannot tell them apart);
 *   - prints, per flow, how many rules are cited;
 *   - with --project, what that profile can assess: the documented rules it cannot, and why;
 *   - with --rules, every rule with the spec's own words beside it (ledger/quotes.ts).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { rules, ruleById, type Flow, type Rule } from '../ledger/rules';
import { describeSchemaMarks } from '../ledger/iso-schema';
import { grantedCapabilities, ruleApplies, whatToGrant, type Capability } from '../ledger/capabilities';
import { needsOf } from '../arrange/plan';
import { declaredClients, type Profile } from '../profile/profile';
import type { Operation } from '../ledger/operations';
import { operationsOf, reportOperationOf, ruleIdsOf } from '../ledger/tags';
import { flattenReport, reportErrors, type PlaywrightJsonReport } from '../record/playwright-report';
import { loadProfile } from '../profile/profile';
import { cliMain } from './lib/cli';
import { quoteLines, quotesNotInSpec, quotesOf } from '../ledger/quotes';
import { LANE_SLOTS, REFUSAL_SLOTS } from '../client/flows/live-lane';

export interface ListedTest {
  /** "file › describe › title" (the same test listed by several projects appears once). */
  title: string;
  /** The same, one title each: file, describes, the test's own. */
  titlePath?: string[];
  ruleIds: string[];
  /** Its tags as listed (without the leading @). */
  tags?: string[];
  /** Operations the test says it exercises (@op:… tags). */
  operations?: Operation[];
  /** The test's own title, as the report names it (the last part of `title`). */
  name?: string;
  /** The operation the report files it under (reportOperationOf). */
  reportOperation?: Operation;
  /** Capabilities the test itself needs beyond its rules' (`takes({ needs })`). */
  needs?: Capability[];
  /** The projects (profiles) that list it: a live profile lists only its @live-safe tests. */
  projects?: string[];
}

export interface FlowCoverage {
  flow: Flow;
  documented: { total: number; cited: number };
  assumption: { total: number; cited: number };
  tests: number;
}

export interface LedgerCheckResult {
  ok: boolean;
  tests: ListedTest[];
  /** Cited IDs missing from the ledger, with the tests citing them. */
  unknown: { id: string; tests: string[] }[];
  /** Retired rules still cited (a warning: the test checks something the ledger no longer claims). */
  retiredCited: { id: string; tests: string[] }[];
  uncitedDocumented: Rule[];
  uncitedAssumptions: Rule[];
  /** (rule, operation) pairs of live rules that no test covers. */
  uncoveredPairs: { rule: string; operation: Operation }[];
  /** Tests citing a rule of several operations without saying which one they exercise. */
  unplaced: { rule: string; test: string }[];
  /** Titles several tests share under one operation of the report, with those tests. */
  sameTitle: { operation: string; name: string; tests: string[] }[];
  coverage: FlowCoverage[];
  /** rule ID → titles of the tests citing it. */
  citations: Map<string, string[]>;
}

/** Lists the tests of the given profiles without running them (no webServer, no global setup). */
export function listTests(profiles: string[]): ListedTest[] {
  const cli = path.join('node_modules', '@playwright', 'test', 'cli.js');
  const run = spawnSync(process.execPath, [cli, 'test', '--list', '--reporter=json'], {
    env: {
      ...process.env,
      PAYMENTS_PROFILES: profiles.join(','),
      PAYMENTS_ALLURE: '0',
      PAYMENTS_SLOW: '1',
      PAYMENTS_EXPLORE: '1',
      PAYMENTS_CONFIRM_LIVE: profiles.join(','),
    },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const start = run.stdout.indexOf('{');
  if (run.status !== 0 || start < 0)
    throw new Error(`playwright --list failed (exit ${run.status}):\n${(run.stderr || run.stdout).slice(-3000)}`);
  const report = JSON.parse(run.stdout.slice(start)) as PlaywrightJsonReport;
  if (report.errors?.length) throw new Error(`playwright --list reported errors:\n${reportErrors(report).join('\n')}`);
  // Keyed by the title without the project: each project lists the same spec with the same tags.
  const tests = new Map<string, ListedTest>();
  for (const t of flattenReport(report)) {
    const reportOperation = reportOperationOf(t.tags);
    const projects = [...(tests.get(t.title)?.projects ?? []), t.project];
    tests.set(t.title, {
      title: t.title,
      titlePath: t.titlePath,
      name: t.titlePath.at(-1)!,
      ruleIds: ruleIdsOf(t.tags),
      tags: t.tags,
      operations: operationsOf(t.tags),
      needs: needsOf(t.annotations),
      projects,
      ...(reportOperation ? { reportOperation } : {}),
    });
  }
  return [...tests.values()];
}

/** Pure part: compares the listed tests with the ledger. */
export function checkLedger(
  tests: ListedTest[],
  options: { strict?: boolean; ledger?: readonly Rule[] } = {},
): LedgerCheckResult {
  const ledger = options.ledger ?? rules;
  const byId = options.ledger ? new Map(ledger.map((r) => [r.id, r])) : ruleById;
  const citations = new Map<string, string[]>();
  for (const t of tests) for (const id of t.ruleIds) citations.set(id, [...(citations.get(id) ?? []), t.title]);

  const unknown = [...citations].filter(([id]) => !byId.has(id)).map(([id, ts]) => ({ id, tests: ts }));
  const retiredCited = [...citations].filter(([id]) => byId.get(id)?.retired).map(([id, ts]) => ({ id, tests: ts }));
  const live = ledger.filter((r) => !r.retired);
  const uncitedDocumented = live.filter((r) => r.level === 'documented' && !citations.has(r.id));
  const uncitedAssumptions = live.filter((r) => r.level === 'assumption' && !citations.has(r.id));

  const covered = new Set<string>();
  const unplaced: LedgerCheckResult['unplaced'] = [];
  for (const t of tests) {
    for (const id of t.ruleIds) {
      const rule = byId.get(id);
      if (!rule) continue;
      const ops = t.operations?.length
        ? t.operations.filter((op) => rule.operations.includes(op))
        : rule.operations.length === 1
          ? rule.operations
          : [];
      if (!ops.length) unplaced.push({ rule: id, test: t.title });
      for (const op of ops) covered.add(`${id}|${op}`);
    }
  }
  const uncoveredPairs = live.flatMap((r) =>
    r.operations.filter((op) => !covered.has(`${r.id}|${op}`)).map((operation) => ({ rule: r.id, operation })),
  );

  const flows = [...new Set(live.map((r) => r.flow))];
  const coverage: FlowCoverage[] = flows.map((flow) => {
    const of = (level: Rule['level']) => live.filter((r) => r.flow === flow && r.level === level);
    const count = (list: Rule[]) => ({ total: list.length, cited: list.filter((r) => citations.has(r.id)).length });
    const flowIds = new Set(live.filter((r) => r.flow === flow).map((r) => r.id));
    return {
      flow,
      documented: count(of('documented')),
      assumption: count(of('assumption')),
      tests: tests.filter((t) => t.ruleIds.some((id) => flowIds.has(id))).length,
    };
  });

  const sameTitle = sharedTitles(tests);
  const ok =
    unknown.length === 0 &&
    sameTitle.length === 0 &&
    !(options.strict && (uncitedDocumented.length > 0 || uncoveredPairs.length > 0));
  return {
    ok,
    tests,
    unknown,
    retiredCited,
    uncitedDocumented,
    uncitedAssumptions,
    uncoveredPairs,
    unplaced,
    sameTitle,
    coverage,
    citations,
  };
}

/** Titles two or more tests share under one operation of the report (the tree shows nothing else of them). */
export function sharedTitles(tests: readonly ListedTest[]): LedgerCheckResult['sameTitle'] {
  const byKey = new Map<string, { operation: string; name: string; tests: string[] }>();
  for (const t of tests) {
    if (t.name === undefined) continue;
    const operation = t.reportOperation ?? '(no operation)';
    const key = `${operation}\u0000${t.name}`;
    const entry = byKey.get(key) ?? { operation, name: t.name, tests: [] };
    entry.tests.push(t.title);
    byKey.set(key, entry);
  }
  return [...byKey.values()].filter((e) => e.tests.length > 1);
}

export function formatLedgerCheck(result: LedgerCheckResult, options: { strict?: boolean } = {}): string {
  const lines: string[] = [];
  const untagged = result.tests.filter((t) => t.ruleIds.length === 0);
  lines.push(`ledger check: ${result.tests.length} tests, ${result.citations.size} distinct rule IDs cited`);
  if (result.unknown.length) {
    lines.push('', `✖ ${result.unknown.length} cited ID(s) are not in ledger/rules.ts:`);
    for (const u of result.unknown) lines.push(`  ${u.id}  cited by ${u.tests.length} test(s), e.g. ${u.tests[0]}`);
  }
  for (const r of result.retiredCited)
    lines.push(`! ${r.id} is retired but still cited by ${r.tests.length} test(s), e.g. ${r.tests[0]}`);
  if (untagged.length) {
    lines.push('', `! ${untagged.length} test(s) cite no rule:`);
    for (const t of untagged.slice(0, 20)) lines.push(`  ${t.title}`);
  }
  if (result.sameTitle.length) {
    lines.push(
      '',
      `✖ ${result.sameTitle.length} title(s) shared by tests under one operation (the report cannot tell them apart: say what differs):`,
    );
    for (const d of result.sameTitle) lines.push(`  ${d.operation}: "${d.name}"\n    ${d.tests.join('\n    ')}`);
  }
  if (result.unplaced.length) {
    lines.push(
      '',
      `! ${result.unplaced.length} citation(s) of a rule of several operations without an @op: tag saying which:`,
    );
    for (const u of result.unplaced.slice(0, 10)) lines.push(`  ${u.rule}  ${u.test}`);
  }
  lines.push('', 'coverage per flow (cited / total):');
  lines.push(`  ${'flow'.padEnd(13)} ${'documented'.padStart(10)} ${'assumption'.padStart(10)} ${'tests'.padStart(6)}`);
  for (const c of result.coverage) {
    lines.push(
      `  ${c.flow.padEnd(13)} ${`${c.documented.cited}/${c.documented.total}`.padStart(10)} ${`${c.assumption.cited}/${c.assumption.total}`.padStart(10)} ${String(c.tests).padStart(6)}`,
    );
  }
  lines.push('', `ISO 20022 schema: ${describeSchemaMarks(rules)} (ledger/iso-schema.ts)`);
  const mark = options.strict ? '✖' : '!';
  lines.push(
    '',
    `${result.uncitedDocumented.length ? mark : '✓'} documented rules no test cites: ${result.uncitedDocumented.length} (target 0)`,
  );
  for (const r of result.uncitedDocumented) lines.push(`  ${r.id.padEnd(8)} ${r.section.padEnd(14)} ${r.statement}`);
  lines.push(
    `${result.uncoveredPairs.length ? mark : '✓'} (rule, operation) pairs no test covers: ${result.uncoveredPairs.length} (target 0)`,
  );
  const byRule = new Map<string, Operation[]>();
  for (const p of result.uncoveredPairs) byRule.set(p.rule, [...(byRule.get(p.rule) ?? []), p.operation]);
  for (const [rule, ops] of byRule) lines.push(`  ${rule.padEnd(8)} ${ops.join(', ')}`);
  const documented = rules.filter((r) => r.level === 'documented' && !r.retired);
  const unquoted = documented.filter((r) => quotesOf(r).length === 0 || quotesNotInSpec(r).length > 0);
  lines.push(
    `${unquoted.length ? '✖' : '✓'} documented rules quoting the spec word for word: ${documented.length - unquoted.length} of ${documented.length} (npm run ledger -- --rules shows each beside its quote)`,
  );
  for (const r of unquoted)
    lines.push(`  ${r.id.padEnd(8)} ${quotesOf(r).length ? 'a quote the spec does not hold' : 'no quote'}`);
  if (result.uncitedAssumptions.length) {
    lines.push('', `assumptions no test cites: ${result.uncitedAssumptions.length}`);
    for (const r of result.uncitedAssumptions) lines.push(`  ${r.id.padEnd(8)} ${r.section.padEnd(14)} ${r.statement}`);
  }
  lines.push('', result.ok ? '✓ ledger check passed' : '✖ ledger check failed');
  return lines.join('\n');
}

/** What the profile's assessment rests on that the bank fills in itself: its own sort code, or the target's answer to unknown originals. */
function restsOn(profile: Profile, granted: ReadonlySet<Capability>): string[] {
  const clients = declaredClients(profile);
  if (!clients || clients.secondary) return [];
  if (clients.primary.memberId && granted.has('beneficiarySide')) {
    return [
      `  returns, refunds and incoming reads rest on the primary's sort code (target.clients.primary.memberId, variable ${clients.primary.memberId}): the primary pays itself there and, as that payment's beneficiary's institution (§1, §2.2 cdtrAgt), returns and refunds it, where the target reads such an on-us payment as the primary's incoming one (expectations.onUs: incoming; INC-06 checks it, npm run discover learns it)`,
    ];
  }
  const instead = clients.primary.memberId
    ? 'the target does not read the primary’s payments to its own sort code as incoming (expectations.onUs: notIncoming)'
    : 'declare target.clients.primary.memberId for the rest';
  if (granted.has('returnableOriginal'))
    return [
      `  returns send back payments the service never saw (expectations.returnUnknownOriginal: "accept"): the §2.5 field rules are judged on such returns; ${instead}`,
    ];
  return [];
}

/**
 * What a live profile's lane assesses: the documented rules its @live-safe tests cite that the profile
 * can assess, from the tests it can run (a test whose own needs are not granted is skipped). Every
 * other test moves money beyond liveLimits or tries what must not be tried on live money.
 */
export function liveLane(
  profile: Profile,
  tests: readonly ListedTest[],
): { runnable: ListedTest[]; skipped: ListedTest[]; overBudget: ListedTest[]; assessed: Rule[] } {
  const granted = grantedCapabilities(profile);
  const listed = tests.filter((t) => !t.projects || t.projects.includes(profile.name));
  // A test runs when the profile grants what it needs itself and one of the documented rules it cites
  // (a test citing only AT-04 is skipped for AT-04's second client).
  const citesApplicable = (t: ListedTest): boolean => {
    const documented = t.ruleIds.map((id) => ruleById.get(id)).filter((r): r is Rule => r?.level === 'documented');
    return !documented.length || documented.some((r) => ruleApplies(r, profile, granted));
  };
  const granting = listed.filter((t) => (t.needs ?? []).every((c) => granted.has(c)) && citesApplicable(t));
  // A refusal of a payment submission takes two slots beyond the lane's own (client/flows/live-lane.ts);
  // one worker runs them in list order, so the first the budget affords run and the rest are skipped.
  const affordable = Math.max(0, Math.floor(((profile.liveLimits?.maxPayments ?? 0) - LANE_SLOTS) / REFUSAL_SLOTS));
  const postRefusals = granting.filter(isPostRefusal);
  const overBudget = postRefusals.slice(affordable);
  const runnable = granting.filter((t) => !overBudget.includes(t));
  const cited = new Set(runnable.flatMap((t) => t.ruleIds));
  const assessed = rules.filter(
    (r) => r.level === 'documented' && !r.retired && cited.has(r.id) && ruleApplies(r, profile, granted),
  );
  return { runnable, skipped: listed.filter((t) => !granting.includes(t)), overBudget, assessed };
}

/** A refusal of a payment submission: in the live lane, a mutant and its valid twin, two budget slots. */
const isPostRefusal = (t: ListedTest): boolean =>
  (t.operations ?? []).includes('submitPayment') && (t.name ?? '').startsWith('refuses:');

function formatLiveLane(profile: Profile, tests: readonly ListedTest[]): string {
  const documented = rules.filter((r) => r.level === 'documented' && !r.retired).length;
  const lane = liveLane(profile, tests);
  const limits = profile.liveLimits;
  const lines = [
    ``,
    `profile ${profile.name} is LIVE: only its @live-safe tests run (PAYMENTS_CONFIRM_LIVE=${profile.name}), within liveLimits (${limits ? `maxPayments ${limits.maxPayments}, maxAmount ${limits.maxAmount}` : 'none declared: no payment'})`,
    `live lane: ${lane.runnable.length} test(s) run, ${lane.skipped.length} skipped for what they need, ${lane.overBudget.length} for the payment budget (a payment refusal takes ${REFUSAL_SLOTS} slots beyond the lane's ${LANE_SLOTS}: ${LANE_SLOTS + REFUSAL_SLOTS * (lane.runnable.filter(isPostRefusal).length + lane.overBudget.length)} run them all); they assess ${lane.assessed.length} of ${documented} documented rules (${((100 * lane.assessed.length) / documented).toFixed(1)}%)`,
    `  rules assessed: ${lane.assessed.map((r) => r.id).join(', ')}`,
    `  tests:`,
    ...lane.runnable.map((t) => `    ${t.title.replace(/ @\S+/g, '')}  [${t.ruleIds.join(' ')}]`),
    ...lane.skipped.map(
      (t) =>
        `    (skipped: needs ${(t.needs ?? []).join(', ') || `what its rules need (${t.ruleIds.join(' ')})`}) ${t.title.replace(/ @\S+/g, '')}`,
    ),
    ...lane.overBudget.map((t) => `    (skipped: over liveLimits.maxPayments) ${t.title.replace(/ @\S+/g, '')}`),
  ];
  return lines.join('\n');
}

/** What one profile can assess: every documented rule, assessable or not, and why not; and the tests it skips for what they need themselves. */
export function formatAssessable(profileName: string, tests: readonly ListedTest[] = []): string {
  const profile = loadProfile(profileName);
  const granted = grantedCapabilities(profile);
  const documented = rules.filter((r) => r.level === 'documented' && !r.retired);
  const cannot = documented.filter((r) => !ruleApplies(r, profile, granted));
  const share = ((100 * (documented.length - cannot.length)) / documented.length).toFixed(1);
  const lines = [
    ``,
    `profile ${profile.name} can assess ${documented.length - cannot.length} of ${documented.length} documented rules (${share}%)`,
    ...restsOn(profile, granted),
  ];
  // Rules that need the same thing are listed together: a bank reads what to ask for once.
  const byNeed = new Map<string, Rule[]>();
  for (const r of cannot)
    byNeed.set(whatToGrant(r.needs!, r.id), [...(byNeed.get(whatToGrant(r.needs!, r.id)) ?? []), r]);
  for (const [need, list] of byNeed) {
    if (list.length === 1) lines.push(`  not assessable: ${list[0]!.id} ${list[0]!.statement}\n      needs ${need}`);
    else lines.push(`  not assessable: ${list.length} rules (${list.map((r) => r.id).join(', ')})\n      need ${need}`);
  }
  const testNeeds = new Map<Capability, number>();
  for (const t of tests)
    for (const c of t.needs ?? []) if (!granted.has(c)) testNeeds.set(c, (testNeeds.get(c) ?? 0) + 1);
  for (const [c, n] of testNeeds)
    lines.push(`  ${n} test(s) skipped for what they need themselves, not their rules: ${whatToGrant(c)}`);
  if (profile.live)
    lines.push(
      `  (the capabilities above; a live run assesses only what its lane's tests cite:)`,
      formatLiveLane(profile, tests),
    );
  return lines.join('\n');
}

/**
 * Every live rule as a reader checks it against the spec: its ID, level, section and statement, and
 * below it the spec's own words that make it one (an assumption: the words that leave it open, where
 * it quotes them, and the profile field that reads it).
 */
export function formatRules(ledger: readonly Rule[] = rules): string {
  const lines: string[] = [];
  for (const r of ledger.filter((x) => !x.retired)) {
    const level = r.level === 'documented' ? 'documented' : `assumption, ${r.profileField}`;
    lines.push(`${r.id.padEnd(8)} ${r.section} (${level}): ${r.statement}`);
    for (const q of quoteLines(r)) lines.push(`           ${q}`);
  }
  return lines.join('\n');
}

export function ledgerCheck(
  options: { profiles?: string[]; strict?: boolean; print?: boolean; rules?: boolean } = {},
): LedgerCheckResult {
  const profiles = options.profiles?.length ? options.profiles : ['local'];
  const result = checkLedger(listTests(profiles), options);
  if (options.print !== false) {
    if (options.rules) console.log(`${formatRules()}\n`);
    console.log(formatLedgerCheck(result, options));
    if (options.profiles?.length) for (const p of profiles) console.log(formatAssessable(p, result.tests));
  }
  return result;
}

const USAGE = 'usage: npm run ledger [-- --project local[,other]] [--strict] [--rules]';

if (require.main === module) {
  cliMain(USAGE, async () => {
    const { values } = parseArgs({
      args: process.argv.slice(2),
      options: {
        project: { type: 'string', multiple: true },
        profile: { type: 'string', multiple: true },
        strict: { type: 'boolean' },
        rules: { type: 'boolean' },
      },
      strict: true,
    });
    const profiles = [...(values.project ?? []), ...(values.profile ?? [])]
      .flatMap((p) => p.split(','))
      .filter(Boolean);
    return ledgerCheck({ profiles, strict: Boolean(values.strict), rules: Boolean(values.rules) }).ok;
  });
}
