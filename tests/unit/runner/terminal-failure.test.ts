/**
 * A terminal failure a person reads once (runner/reporters/terminal.ts, failure.ts, summary.ts): one
 * failing SCA test against the reference with the fault that lets any hd through. Its failure names
 * the failed check with what was expected and received, the rule's section as a path of the spec's
 * source, the code frame at the test's own line (not the oracle's), its exchanges by distinct titles
 * with the judged one marked and printed whole (the sca-token's claims with hd), "Reproduce" with the
 * rerun command whole, no attachment numbers; the summary starts with the rules and counts the tests
 * once, on the last line, which CI reads.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { cleanEnv, runPlaywrightCli, tempDir } from '../support/cli';

test('a failed test is printed once, whole, at its own line, and the summary ends with the counts CI reads', () => {
  const run = runPlaywrightCli(
    ['--project=local', 'tests/payments/headers-and-sca.spec.ts', '--grep', 'refuses: SCA hd of another body'],
    cleanEnv({
      PAYMENTS_CLIENT_FAULTS: 'sca-hd-unchecked',
      PAYMENTS_RUN_DIR: path.join(tempDir('terminal'), 'run'),
      PAYMENTS_WORKERS: '1',
      PAYMENTS_ALLURE: '0',
    }),
  );
  const out = stripVTControlCharacters(run.stdout);
  assert.equal(run.status, 1, out + run.stderr);
  assert.match(out, /^ {2}1\) .*refuses: SCA hd of another body$/m);
  assert.match(out, /^ {4}Error: SCA-09 the submission is refused: SCA hd of another body$/m);
  assert.match(out, /^ {6}received: HTTP 201 — body: /m);
  assert.match(
    out,
    /^ {4}at tests\/payments\/headers-and-sca\.spec\.ts:\d+$/m,
    'the code frame is at the test’s own line',
  );
  assert.match(out, /^ {4}> +\d+ \| .*verdicts\.check\(.*refusedAs\(/m);
  assert.doesNotMatch(out, /checks\/verdicts\.ts/, 'no frame of the oracle');
  assert.match(out, /^ {4}spec: SCA-09 §5 §7 → spec\/payments-api\.md:\d+$/m);
  assert.match(out, /^ {6}“\| Payload \| hd \| required \| Base64-encoded SHA-256 hash .* the request fails \|”$/m);
  assert.match(out, /^ {4}valid twin — POST \/payments\/pacs008\/v10 → 201$/m);
  assert.match(out, /^ {4}✘ mutant: SCA hd of another body — POST \/payments\/pacs008\/v10 → 201$/m);
  assert.match(
    out,
    /^ {6}sca-token: \[REDACTED JWT [^\n]*"hd":"[^"]+"[^\n]*\}\]$/m,
    'the claims are whole, hd included',
  );
  assert.match(out, /^ {4}Reproduce$/m);
  assert.match(
    out,
    /^ {8}PAYMENTS_SEED=\d+ PAYMENTS_CLIENT_FAULTS=sca-hd-unchecked npx playwright test .*--grep '.*'$/m,
  );
  assert.doesNotMatch(out, /attachment #|\.\.\.$/m, 'no numbered attachments, nothing cut');
  assert.match(out, /^Rules \(local\): \d+ of \d+ documented rules assessed, 1 violated \(SCA-09\)$/m);
  assert.equal(out.match(/\d+ passed, \d+ failed/g)?.length, 1, 'the tests are counted once');
  assert.equal(out.trimEnd().split('\n').at(-1), '0 passed, 1 failed, 0 skipped');
});
