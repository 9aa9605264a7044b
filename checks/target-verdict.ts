/**
 * The run's verdict on its target as a whole, from what the target answered
 * (record/target-tally.ts): a target that accepts most of what the spec says it must refuse is not
 * validating; one that refuses (or fails) every payments request, valid ones included, cannot be
 * assessed at all. A person says so in one line instead of reading hundreds of failures; the
 * summary and run.json print this sentence, they do not judge.
 *
 * And when a run sends nothing more: a target that validates nothing and settles nothing it
 * accepts (a mock sandbox) gives each further refusal case a payment it keeps nowhere and a verdict
 * already known. A target that settles what it accepts is never stopped, whatever it accepts: its
 * every answer is evidence about a rule.
 */
import { type TargetTally, totalOf } from '../record/target-tally';

export type TargetVerdictKind = 'not-validating' | 'refuses-everything' | 'fails-everything';

export interface TargetVerdict {
  kind: TargetVerdictKind;
  /** One sentence with the counts. */
  sentence: string;
}

/** Answers (or refusal cases) a verdict on the whole target needs at least: a handful says nothing. */
export const MIN_EVIDENCE = 20;

const n = (value: number): string => value.toLocaleString('en-US');

/** Most refusal cases were accepted, on enough of them to say so. */
function acceptsMostRefusals(tally: TargetTally): boolean {
  const cases = totalOf(tally.refusalCases);
  return cases >= MIN_EVIDENCE && tally.refusalCases.accepted * 2 > cases;
}

/** The verdict on the target, or undefined when its answers do not make one (a conforming target's never do). */
export function judgeTarget(tally: TargetTally): TargetVerdict | undefined {
  const { accepted, refused, serverError } = tally.answers;
  const answers = totalOf(tally.answers);
  if (answers >= MIN_EVIDENCE && accepted === 0) {
    if (refused === 0)
      return {
        kind: 'fails-everything',
        sentence: `this target answers every payments request with a server error (${n(serverError)} of ${n(answers)} answered 5xx): it is broken, and none of its payments rules could be assessed`,
      };
    return {
      kind: 'refuses-everything',
      sentence: `this target refuses every payments request, valid ones included (${n(refused)} of ${n(answers)} answered 4xx${serverError ? `, ${n(serverError)} 5xx` : ''}, none 2xx): none of its payments rules could be assessed`,
    };
  }
  if (acceptsMostRefusals(tally)) {
    const notSent = tally.notSent ? `; ${n(tally.notSent)} tests sent nothing, as it settles nothing it accepts` : '';
    return {
      kind: 'not-validating',
      sentence: `this target accepts what the spec says it must refuse (${n(tally.refusalCases.accepted)} of ${n(totalOf(tally.refusalCases))} refusal cases accepted${notSent}): it is not validating`,
    };
  }
  return undefined;
}

/**
 * Why the run sends nothing more that would create something at the target, or undefined while it
 * should: only when the target both accepts most refusal cases and settles nothing it accepted.
 */
export function sendsNothingMore(tally: TargetTally): string | undefined {
  if (!tally.unsettled || !acceptsMostRefusals(tally)) return undefined;
  return `the target is not validating (${n(tally.refusalCases.accepted)} of ${n(totalOf(tally.refusalCases))} refusal cases accepted so far) and settles nothing it accepts (${tally.unsettled.rule}: ${withoutBody(tally.unsettled.message)}): this test would only create more there`;
}

/** A message that quotes an answer (checks/verdicts.ts answerOf), without the answer's body: one line. */
const withoutBody = (message: string): string => message.split(' — body:')[0]!;
