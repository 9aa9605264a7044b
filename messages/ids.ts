/**
 * Message identifiers (msgId, endToEndId, txId, nonces...). They must never collide: the service
 * uses msgId for idempotency, so a collision between two workers, or with an earlier run against a
 * remote target that remembers every msgId, would turn a "new payment" test into a repeat.
 */
import { randomBytes } from 'node:crypto';
import { runIdOf } from '../profile/run-settings';

/** ISO 20022 Max35Text: identifiers are at most 35 characters. */
export const MAX35 = 35;

let counter = 0;

/**
 * `<prefix>-<run id>-<random>-<counter>`, restricted to [A-Za-z0-9-] and cut to 35 characters.
 * The run id (PAYMENTS_RUN_ID) separates runs; 48 random bits separate workers and processes; the
 * counter keeps two calls in one process distinct even if the random source repeated.
 */
export function uniqueId(prefix: string): string {
  const clean = prefix.replace(/[^A-Za-z0-9]/g, '').slice(0, 8) || 'ID';
  const run = (runIdOf() ?? '').replace(/[^A-Za-z0-9]/g, '').slice(0, 8) || 'norun';
  const random = randomBytes(6).toString('hex');
  counter = (counter + 1) % 1296; // two base-36 characters
  const id = `${clean}-${run}-${random}-${counter.toString(36)}`;
  return id.slice(0, MAX35);
}
