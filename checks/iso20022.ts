/**
 * ISO 20022 where the spec meets it. The creditor name's place in a return (ISO-03): §2.5's table
 * and ISO put it at cdtr.pty.nm, its request example at cdtr.nm; the profile names which the target
 * reads. The target's answers held to ISO 20022 (ISO-01, an assumption): a pacs.002, camt.029 or incoming
 * pacs.008 the target served is valid under its version's XSD (messages/iso20022/). Where the profile
 * says its answers are valid ISO (expectations.isoAnswers: valid), a finding is that assumption not
 * met: failed where the profile enforces its assumptions, a note otherwise. Where it does not say so,
 * the findings are only reported beside the test, as the summary reports them for the whole run
 * (record/iso-tally.ts). Each finding names the field, its value and the facet it breaks.
 */
import { senderOf, shapeAccepted } from './shape-evidence';
import type { Expectations, OperationName, Profile } from '../profile/profile';
import type { Reading } from '../ledger/readings';
import type { Exchange } from '../transport/http';
import type { IsoFinding, IsoSchemas } from '../messages/iso20022/validate';
import { isoMessageOf } from '../messages/iso20022/versions';
import { answered, notRefused, type Expectation, type Verdicts } from './verdicts';

/** "`grpHdr.msgId` = "…36 characters…": [facet 'maxLength'] … (Max35Text)". */
export const describeFinding = (f: IsoFinding): string =>
  `${f.path || '(document)'}${f.value !== undefined ? ` = ${JSON.stringify(f.value)}` : ''}: ${f.message}`;

/**
 * The answer is valid under the XSD of the message `op` serves at `version`. The schemas are the
 * caller's (messages/iso20022/validate.ts loadIsoSchemas): a yardstick that is not there yet must not
 * read as a pass.
 */
export function validIso(iso: IsoSchemas, exchange: Exchange, op: OperationName, version: string): Expectation {
  const message = isoMessageOf(op, version);
  if (!message) return { ok: true };
  const verdict = iso.validate(message, exchange.response.json);
  return {
    ok: verdict.valid,
    expected: `a ${message} valid under its XSD`,
    ...answered(exchange),
    ...(verdict.valid ? {} : { received: verdict.findings.map(describeFinding).join('; ') }),
  };
}

/**
 * ISO-01 on one answer: assumed where the profile says the target's answers are valid ISO 20022,
 * otherwise its findings are a note beside the test.
 */
export function answerHeldToIso(
  verdicts: Verdicts,
  iso: IsoSchemas,
  exchange: Exchange,
  answer: { op: OperationName; version: string; what: string },
): void {
  const held = validIso(iso, exchange, answer.op, answer.version);
  if (held.ok || verdicts.profile.expectations.isoAnswers === 'valid') verdicts.assume('ISO-01', answer.what, held);
  else verdicts.annotate('ISO 20022 findings', `${answer.what}: ${held.received}`);
}

/**
 * How the target reads a return whose creditor name stands at the other place than the twin's
 * (ISO-03): accepted where it reads either, refused where the profile names one place, either answer
 * where the profile names none.
 */
export function otherCreditorPlaceReading(expectations: Expectations): Reading {
  const place = expectations.returnCreditorName;
  return place === undefined ? 'either' : place === 'either' ? 'allow' : 'refuse';
}

/**
 * A return that must be accepted carries the creditor name where the profile reads it (ISO-03): where
 * the profile names the place and enforces its assumptions it is trusted, and a refusal is the
 * documented rule's; otherwise a refusal may be that place's, and the test is blocked by ISO-03,
 * whose own test reports it, until a return in that place is seen accepted.
 */
export function creditorPlaceHeld(verdicts: Verdicts, exchange: Exchange): void {
  // Trusted, or seen: a return the same client sent in this shape was accepted (checks/shape-evidence.ts).
  if (creditorPlaceTrusted(verdicts.profile) || shapeAccepted('return', senderOf(exchange))) return;
  verdicts.gate('ISO-03', 'the target reads a return’s creditor name where the profile says', notRefused(exchange));
}

/** A profile that names where its target reads a return's creditor name, and enforces its assumptions: the suite trusts it. */
export const creditorPlaceTrusted = (profile: Pick<Profile, 'expectations'>): boolean =>
  profile.expectations.assumptions === 'enforce' && profile.expectations.returnCreditorName !== undefined;
