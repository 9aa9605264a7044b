/**
 * Known deviations of an environment (environments/<name>.deviations.json): failures a team has
 * agreed to tolerate for a while, each with a reason, a ticket, an owner and an expiry date. Pure:
 * validation and matching only; scripts/nightly.ts reads the files and runs the suite.
 *
 * Policy (nightly runs only; certification ignores deviations):
 *   - a failing test matched by an unexpired entry is a KNOWN DEVIATION and does not fail the job;
 *   - an expired entry fails the job, whatever the test did;
 *   - an unexpired entry that matches no failing test fails the job: the test passes now (or is
 *     gone), so the entry must be removed.
 */
import { Ajv, type ErrorObject } from 'ajv';
import { ruleById } from '../fixtures/ledger/rules';

export interface Deviation {
  /** A ledger rule ID: matches every failing test that cites it. */
  rule?: string;
  /** Text contained in the test title (project name excluded): matches those tests. */
  test?: string;
  reason: string;
  ticket: string;
  owner: string;
  /** Last day (UTC) the entry is honoured, YYYY-MM-DD. */
  expires: string;
}

export const deviationsSchema = {
  type: 'array',
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['reason', 'ticket', 'owner', 'expires'],
    anyOf: [{ required: ['rule'] }, { required: ['test'] }],
    properties: {
      rule: { type: 'string', pattern: '^[A-Z0-9]+-\\d+$' },
      test: { type: 'string', minLength: 3 },
      reason: { type: 'string', minLength: 3 },
      ticket: { type: 'string', minLength: 1 },
      owner: { type: 'string', minLength: 1 },
      expires: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
    },
  },
} as const;

// strictRequired off: the anyOf branches name properties declared one level up, which is what they mean.
const ajv = new Ajv({ allErrors: false, strict: true, strictRequired: false });
const validate = ajv.compile(deviationsSchema);

export class DeviationsError extends Error {
  override name = 'DeviationsError';
}

function describe(file: string, error: ErrorObject): string {
  const [, index, field] = /^\/(\d+)(?:\/(\w+))?/.exec(error.instancePath) ?? [];
  const where = index === undefined ? '' : `entry ${Number(index) + 1}${field ? ` field "${field}"` : ''}`;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type':
      return where ? `${file}: ${where} must be ${String(params.type)}` : `${file}: must be a JSON array of deviation entries`;
    case 'required':
      return `${file}: ${where} is missing "${String(params.missingProperty)}"`;
    case 'anyOf':
      return `${file}: ${where} needs "rule" or "test" (or both) to say which failures it covers`;
    case 'additionalProperties':
      return `${file}: ${where} has unknown field "${String(params.additionalProperty)}" (allowed: rule, test, reason, ticket, owner, expires)`;
    case 'pattern':
      return field === 'expires' ? `${file}: ${where} must be a date YYYY-MM-DD` : `${file}: ${where} must look like a ledger ID such as P8-12`;
    case 'minLength':
      return `${file}: ${where} must not be empty`;
    default:
      return `${file}: ${where || '(top level)'} ${error.message ?? 'is invalid'}`;
  }
}

const isRealDate = (s: string): boolean => {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
};

/** Validates a parsed deviations file; throws one DeviationsError sentence naming the entry and field. */
export function parseDeviations(json: unknown, file: string): Deviation[] {
  if (!validate(json)) {
    const errors = validate.errors ?? [];
    // anyOf reports its branches' "required" first; the anyOf itself says it better.
    const chosen = errors.find((e) => e.keyword === 'anyOf') ?? errors[0];
    throw new DeviationsError(chosen ? describe(file, chosen) : `${file}: invalid deviations file`);
  }
  const list = json as unknown as Deviation[];
  list.forEach((d, i) => {
    if (!isRealDate(d.expires)) throw new DeviationsError(`${file}: entry ${i + 1} field "expires" is not a real date: ${d.expires}`);
    if (d.rule && !ruleById.has(d.rule)) throw new DeviationsError(`${file}: entry ${i + 1} field "rule": ${d.rule} is not in the ledger (fixtures/ledger/rules.ts)`);
  });
  return list;
}

export interface RunTest {
  /** "project › file › describe › title" as scripts/run-playwright.ts reports it. */
  title: string;
  tags: string[];
  outcome: string;
}

/** The title without its leading project segment: deviation texts never depend on the project. */
export const titleWithoutProject = (title: string): string => title.split(' › ').slice(1).join(' › ') || title;

export function matches(deviation: Deviation, test: RunTest): boolean {
  if (deviation.rule && !test.tags.map((t) => t.replace(/^@/, '')).includes(deviation.rule)) return false;
  if (deviation.test && !titleWithoutProject(test.title).includes(deviation.test)) return false;
  return Boolean(deviation.rule || deviation.test);
}

export const isExpired = (deviation: Deviation, today: string): boolean => deviation.expires < today;

export const todayUtc = (now = new Date()): string => now.toISOString().slice(0, 10);

export interface DeviationOutcome {
  /** Failing tests excused by an unexpired entry. */
  known: { test: string; deviation: Deviation }[];
  /** Failing tests no unexpired entry excuses. */
  regressions: { test: string; tags: string[] }[];
  /** Entries past their date: each fails the job. */
  expired: Deviation[];
  /** Unexpired entries that match no failing test: each fails the job ("remove it"). */
  stale: { deviation: Deviation; why: string }[];
  /** Unexpired entries whose tests were skipped or not part of a partial run: reported only. */
  unchecked: { deviation: Deviation; why: string }[];
  ok: boolean;
}

export const describeDeviation = (d: Deviation): string =>
  `${[d.rule, d.test && JSON.stringify(d.test)].filter(Boolean).join(' ')} (${d.ticket}, ${d.owner}, expires ${d.expires})`;

/**
 * Applies deviations to a run. `complete` says the run executed the whole suite for the project;
 * in a partial run (--grep, a file, one shard) an entry matching no test proves nothing.
 */
export function applyDeviations(tests: readonly RunTest[], deviations: readonly Deviation[], today: string, complete = true): DeviationOutcome {
  const active = deviations.filter((d) => !isExpired(d, today));
  const expired = deviations.filter((d) => isExpired(d, today));
  const known: DeviationOutcome['known'] = [];
  const regressions: DeviationOutcome['regressions'] = [];
  for (const t of tests.filter((x) => x.outcome === 'failed')) {
    const excuse = active.find((d) => matches(d, t));
    if (excuse) known.push({ test: t.title, deviation: excuse });
    else regressions.push({ test: t.title, tags: t.tags });
  }
  const stale: DeviationOutcome['stale'] = [];
  const unchecked: DeviationOutcome['unchecked'] = [];
  for (const d of active) {
    const matched = tests.filter((t) => matches(d, t));
    if (matched.some((t) => t.outcome === 'failed')) continue;
    if (matched.some((t) => t.outcome === 'passed')) stale.push({ deviation: d, why: `every matching test passes now (${matched.filter((t) => t.outcome === 'passed').length}): remove it` });
    else if (matched.length) unchecked.push({ deviation: d, why: 'its tests were skipped in this run' });
    else if (complete) stale.push({ deviation: d, why: 'it matches no test of this run (renamed or removed?): fix or remove it' });
    else unchecked.push({ deviation: d, why: 'no matching test in this partial run' });
  }
  return { known, regressions, expired, stale, unchecked, ok: regressions.length === 0 && expired.length === 0 && stale.length === 0 };
}
