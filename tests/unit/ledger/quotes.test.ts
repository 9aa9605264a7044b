/**
 * Every documented rule quotes the spec's words that make it one, and the spec holds each quote word
 * for word (ledger/quotes.ts): a rule's clause beside its check, so a reader sees when a test asserts
 * more than its clause says. Run with `node --import tsx --test tests/unit/ledger/quotes.test.ts`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rules } from '../../../ledger/rules';
import { normaliseQuote, quotesNotInSpec, quotesOf } from '../../../ledger/quotes';

const live = rules.filter((r) => !r.retired);

test('every documented rule quotes the spec', () => {
  const without = live.filter((r) => r.level === 'documented' && quotesOf(r).length === 0).map((r) => r.id);
  assert.deepEqual(without, [], `documented rules without a quote of the spec: ${without.join(', ')}`);
});

test('every quote of every rule occurs in spec/payments-api.md, word for word', () => {
  const missing = rules.flatMap((r) => quotesNotInSpec(r).map((q) => `${r.id}: “${q}”`));
  assert.deepEqual(missing, [], `quotes the spec does not hold:\n${missing.join('\n')}`);
});

test('a quote is a table row (from pipe to pipe) or words enough to read alone, never a scrap', () => {
  const row = (q: string) => /^\|.*\|$/.test(normaliseQuote(q));
  const scraps = rules.flatMap((r) =>
    quotesOf(r)
      .filter((q) => !row(q) && normaliseQuote(q).split(' ').length < 4)
      .map((q) => `${r.id}: “${q}”`),
  );
  assert.deepEqual(scraps, []);
});

test('quotes are compared with whitespace, table pipes and list markers normalised, the words kept', () => {
  assert.equal(normaliseQuote('|  a |b|'), '| a | b |');
  assert.equal(normaliseQuote('  - one\n   two  '), 'one two');
  assert.equal(normaliseQuote('1. first item'), 'first item');
  const spec = normaliseQuote('| Payload | nonce | required | unique message ID, freely defined |\n');
  assert.deepEqual(quotesNotInSpec({ quote: '|Payload|nonce|required|unique message ID, freely defined|' }, spec), []);
  assert.deepEqual(quotesNotInSpec({ quote: '| Payload | nonce | required | a unique message ID |' }, spec), [
    '| Payload | nonce | required | a unique message ID |',
  ]);
});
