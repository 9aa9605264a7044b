/**
 * The named checks that prove a refusal created nothing, which let refusals run in the live lane
 * (tests tagged @live-safe): the refused token request grants no token, the refused read changed
 * nothing, the unknown id is still unknown, the refused payment left its msgId free.
 */
import type { Exchange } from '../transport/http';
import { firstStatusEntry } from '../messages/answers';
import { is2xx } from '../messages/http-status';
import { answered, type Verdicts } from './verdicts';

/**
 * Created nothing, on the token endpoint: the refused answer carries no access token. The token
 * endpoint keeps no resource a client could read back (§4.1), so the token is all it could have made.
 */
export function refusedTokenGrantsNothing(verdicts: Verdicts, rule: string, refusal: Exchange): boolean {
  const body = refusal.response.json as { access_token?: unknown } | undefined;
  return verdicts.check(rule, 'created nothing: the refused token request grants no access_token', {
    ok: body?.access_token === undefined,
    expected: 'no access_token in the refusal',
    ...answered(refusal),
  });
}

/**
 * Created nothing, on a read: after the refused read, the valid read is answered as before it (the
 * same status code, the same payment by its echoed endToEndId). A read never creates; this proves the
 * refusal did not alter the resource either.
 */
export function readChangedNothing(verdicts: Verdicts, rule: string, twin: Exchange, again: Exchange): boolean {
  const echo = (exchange: Exchange): unknown => firstStatusEntry(exchange.response.json)?.orgnlEndToEndId;
  const ok = again.response.status === twin.response.status && echo(again) === echo(twin);
  return verdicts.check(
    rule,
    'created nothing: after the refusal the valid read answers as before (same status, same payment)',
    { ok, expected: `HTTP ${twin.response.status}, orgnlEndToEndId ${String(echo(twin))}`, ...answered(again) },
  );
}

/** Created nothing, on an unknown id: `again`, a second read of the refused id, is refused too (nothing exists under it now). */
export function unknownIdStillUnknown(verdicts: Verdicts, rule: string, id: string, again: Exchange): boolean {
  const status = again.response.status;
  return verdicts.check(rule, `created nothing: ${id} is still not served on a second read`, {
    ok: status >= 400 && status < 500,
    expected: 'a 4xx, as the first read',
    ...answered(again),
  });
}

/**
 * Created nothing, on a payments POST: the valid twin sent AFTER the refusal, with the refused
 * message's own msgId, is not answered as a repeat (§4.2's 200, or another 2xx but 201). Had the
 * refusal created a payment, §4.2's idempotency would answer the twin 200 with it. A 201 shows
 * nothing existed; a 4xx is a target that counts the refused request's msgId as used (§2.2: it "must
 * uniquely identify each request"), which created nothing either.
 */
export function createdNothingUnderMsgId(verdicts: Verdicts, rule: string, twinAfter: { exchange: Exchange }): boolean {
  const status = twinAfter.exchange.response.status;
  return verdicts.check(
    rule,
    "created nothing: the valid twin with the refused message's msgId, sent after the refusal, is no repeat (201, or a 4xx for a used msgId; not 200)",
    {
      // A 5xx shows nothing either way: the history takes such a POST both ways.
      ok: status === 201 || !is2xx(status),
      expected: 'HTTP 201 (nothing existed under that msgId), or a 4xx',
      ...answered(twinAfter.exchange),
    },
  );
}
