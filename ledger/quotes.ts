/**
 * The spec's own words beside each rule. A documented rule quotes the sentence or the table row of
 * spec/payments-api.md that makes it one (ledger/rules.ts `quote`), verbatim: a reader sees the
 * clause beside the check, and so sees when a test asserts more than its clause says. Only a sentence
 * that says what the service does (a request "fails", "is rejected", is answered 200, a value is
 * "required" or "used for idempotency") makes a documented rule; a sentence that tells the client what
 * to send ("unique", "freely defined", "must uniquely identify") is the client's duty, and what the
 * service does about it is an assumption, read from the profile.
 *
 * A quote is found in the spec once both are normalised: whitespace runs are one space, a table's
 * pipes one " | ", and a list item's leading marker is not part of the words.
 */
import { readFileSync } from 'node:fs';
import { SPEC_FILE } from '../record/spec-html';
import type { Rule } from './rules';

/** A rule's quotes, one per sentence or table row (none where it has none). */
export const quotesOf = (rule: Pick<Rule, 'quote'>): readonly string[] =>
  rule.quote === undefined ? [] : typeof rule.quote === 'string' ? [rule.quote] : rule.quote;

/** Text as a quote is compared: whitespace collapsed, table pipes spaced alike, list markers dropped. */
export function normaliseQuote(text: string): string {
  return text
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line) => line.replace(/^\s*(?:[-*]|\d+\.)\s+/, ''))
    .join('\n')
    .replace(/\s*\|\s*/g, ' | ')
    .replace(/\s+/g, ' ')
    .trim();
}

let specText: string | undefined;

/** The spec as quotes are looked up in it. */
export function normalisedSpec(file = SPEC_FILE): string {
  if (file !== SPEC_FILE) return normaliseQuote(readFileSync(file, 'utf8'));
  specText ??= normaliseQuote(readFileSync(file, 'utf8'));
  return specText;
}

/** The quotes of `rule` the spec does not hold, word for word. */
export const quotesNotInSpec = (rule: Pick<Rule, 'quote'>, spec = normalisedSpec()): string[] =>
  quotesOf(rule).filter((q) => !spec.includes(normaliseQuote(q)));

/** A rule's quotes as a reader sees them beside it: “…”, one per line. */
export const quoteLines = (rule: Pick<Rule, 'quote'>): string[] => quotesOf(rule).map((q) => `“${q.trim()}”`);
