/**
 * The kill matrix's faults as the suite reads them: a name and the rule it breaks (scripts/mutation.ts
 * takes them from the reference's catalogue; nothing here imports it). Which tests a fault runs, and
 * the one definition of a kill, used by the run that stops a fault's tests once it is killed
 * (fixtures/kill-cap.ts) and by the matrix that judges it (scripts/lib/matrix.ts).
 */
import { isOperation, type Operation } from './operations';
import type { RuleOutcome } from './outcomes';
import { ruleById } from './rules';
import { grepFor, operationsOf } from './tags';
import { titlePathGrep } from '../record/replay';
import type { Profile } from '../profile/profile';

export interface Fault {
  name: string;
  /** The ledger rule it breaks. */
  rule: string;
  /**
   * `history`: only the run's history sees it (reference/faults.ts): it runs its tests to their end,
   * with the observations and pool a normal run starts, in a project of its own.
   */
  seenBy?: 'history';
  /** Rules whose tests send what the fault needs, besides its own rule's: it runs them too. */
  exercisedBy?: readonly string[];
  /**
   * The one test the fault runs, instead of every test citing its rule: the test that killed it in an
   * earlier matrix (ledger/first-kills.json), as its title path from its file down. A fault it no longer
   * kills runs every test citing its rule after (scripts/mutation.ts).
   */
  tryFirst?: readonly string[];
}

/** A test as a fault selects it: its title path from its file down, and its tags (with or without @). */
export interface SelectableTest {
  titlePath: readonly string[];
  tags: readonly string[];
}

/** The annotation naming the fault a test of a batch ran against (fixtures/options.ts): the matrix reads its kills by it. */
export const FAULT_ANNOTATION = 'fault';

/** The one operation a per-operation or per-version fault (`base@operation`, `base@operation:version`) breaks; undefined for any other. */
export function faultOperation(name: string): Operation | undefined {
  const op = name.split('@')[1]?.split(':')[0];
  return op && isOperation(op) ? op : undefined;
}

/**
 * The tests a fault runs, as a Playwright grep: those citing its rule (and its operation, if it has
 * one), and those citing the rules that exercise it.
 */
export const faultGrep = (fault: Fault): RegExp =>
  fault.tryFirst
    ? new RegExp(`^${titlePathGrep(fault.tryFirst)}`)
    : new RegExp(
        [grepFor(fault.rule, faultOperation(fault.name)), ...(fault.exercisedBy ?? []).map((rule) => grepFor(rule))]
          .map((grep) => grep.source)
          .join('|'),
      );

/**
 * Whether a test is one the fault runs, read from its tags (with or without @): the grep's selection,
 * since Playwright's grep text holds the same @-words (the titles' and the declared tags) besides
 * the project name and file path, which hold none.
 */
export const faultRuns = (fault: Fault, tags: readonly string[]): boolean =>
  faultGrep(fault).test(tags.map((t) => (t.startsWith('@') ? t : `@${t}`)).join(' '));

/** Whether the fault runs this test: the one it tries first, else any test its tags select (faultRuns). */
export const faultSelects = (fault: Fault, test: SelectableTest): boolean =>
  fault.tryFirst
    ? fault.tryFirst.length === test.titlePath.length && fault.tryFirst.every((t, i) => t === test.titlePath[i])
    : faultRuns(fault, test.tags);

/** The operations a test exercises: its @op: tags, else the one operation of `rule`, if it governs one. */
export function testOperations(tags: readonly string[], rule: string): readonly Operation[] {
  const tagged = operationsOf(tags);
  const operations = ruleById.get(rule)?.operations ?? [];
  return tagged.length ? tagged : operations.length === 1 ? operations : [];
}

/** What one test run with a fault on left: its tags and how each rule it cites came out. */
export interface KillEvidence {
  tags: readonly string[];
  outcomes: readonly RuleOutcome[];
}

/**
 * A kill: the test failed the very rule the fault breaks, on the operation it breaks. A test that
 * failed some other rule proves nothing about this fault.
 */
export function killsFault(fault: Fault, evidence: KillEvidence): boolean {
  const op = faultOperation(fault.name);
  const failedRule = evidence.outcomes.some((o) => o.rule === fault.rule && o.status === 'failed');
  return failedRule && (!op || !ruleById.has(fault.rule) || testOperations(evidence.tags, fault.rule).includes(op));
}

/**
 * The name a fault's own record is kept under when a kill-matrix batch serves several faults (the
 * target's tally, the pool's share, the history's verdict): its project's name as if it ran alone.
 */
export const faultProject = (project: string, faults: readonly string[]): string => `${project}~${faults.join(',')}`;

/**
 * The profile with some of its capability switches off (`npm run mutation -- --without batchControl`):
 * a fault proven killed where a target grants no more than a sandbox does.
 */
export function withoutCapabilities(profile: Profile, names: readonly string[]): Profile {
  if (!names.length) return profile;
  const unknown = names.filter((name) => !Object.hasOwn(profile.capabilities, name));
  if (unknown.length)
    throw new Error(
      `--without takes capability switches of the profile (${Object.keys(profile.capabilities).join(', ')}), not ${unknown.join(', ')}`,
    );
  return {
    ...profile,
    capabilities: { ...profile.capabilities, ...Object.fromEntries(names.map((name) => [name, false])) },
  };
}
