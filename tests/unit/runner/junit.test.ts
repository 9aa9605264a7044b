/**
 * What a CI tool reads of a failing run: its run folder's junit.xml (runner/junit.ts), which GitLab's
 * pipelines publish as artifacts:reports:junit, is valid against the schema of what GitLab reads
 * (tests/unit/support/junit/: the Jenkins xUnit plugin's junit-10.xsd plus testcase/@file and
 * testcase/properties) and, those two taken out, against junit-10.xsd itself; GitLab's parser finds
 * one testcase per test, the failure's claim in its text and the skip's reason in its; and the job
 * summary GitHub's template writes from the run's results.json (scripts/ci-summary.ts) opens with the
 * rules line and names the failed test with its claim. One run of two tests in two projects: one
 * failing under a fault the local reference plays (in both projects: the fault is also on the clients
 * the runner onboards for the one-client profile), one skipped for the second client the one-client
 * profile does not have.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { cleanEnv, root, runPlaywrightCli, runScript, tempDir } from '../support/cli';
import { xmlAttribute, xmlText } from '../../../runner/junit';

const FAILING = 'refuses: SCA hd of another body';
const SKIPPED = 'refuses: SCA kid of the secondary client';
const SCHEMAS = path.join(root, 'tests', 'unit', 'support', 'junit');

const runDir = path.join(tempDir('junit'), 'run');
let ran: ReturnType<typeof runPlaywrightCli> | undefined;
/** One run for every test of this file. */
function failingRun(): ReturnType<typeof runPlaywrightCli> {
  ran ??= runPlaywrightCli(
    [
      '--project=local',
      '--project=local-one-client',
      'tests/payments/headers-and-sca.spec.ts',
      '--grep',
      `${FAILING}|${SKIPPED}`,
    ],
    cleanEnv({
      PAYMENTS_CLIENT_FAULTS: 'sca-hd-unchecked',
      PAYMENTS_RUN_DIR: runDir,
      PAYMENTS_WORKERS: '1',
      PAYMENTS_ALLURE: '0',
    }),
  );
  return ran;
}

/** Throws libxml2's own messages when `xml` is not valid against the schema in `xsdFile`. */
async function validate(xml: string, xsdFile: string): Promise<void> {
  const { XmlDocument, XsdValidator, XmlValidateError } = await import('libxml2-wasm');
  const schema = XmlDocument.fromString(readFileSync(xsdFile, 'utf8'));
  const doc = XmlDocument.fromString(xml);
  const validator = XsdValidator.fromDoc(schema);
  try {
    validator.validate(doc);
  } catch (error) {
    if (error instanceof XmlValidateError)
      throw new Error(
        `not valid against ${path.basename(xsdFile)}: ${error.details.map((d) => d.message.trim()).join('; ')}`,
      );
    throw error;
  } finally {
    validator.dispose();
    doc.dispose();
    schema.dispose();
  }
}

function junit(): string {
  const run = failingRun();
  assert.equal(run.status, 1, run.stdout + run.stderr);
  const file = path.join(runDir, 'junit.xml');
  assert.ok(existsSync(file), 'the run folder has no junit.xml');
  return readFileSync(file, 'utf8');
}

test('a failing run’s junit.xml is valid against what GitLab reads, and junit-10.xsd but for @file and testcase properties', async () => {
  const xml = junit();
  await validate(xml, path.join(SCHEMAS, 'gitlab-junit.xsd'));
  const plain = xml.replace(/\n\s*<properties>[\s\S]*?<\/properties>/g, '').replace(/ file="[^"]*"/g, '');
  await validate(plain, path.join(SCHEMAS, 'junit-10.xsd'));
  // The validator refuses what the schema does: a testcase without its name.
  await assert.rejects(
    validate(xml.replace(/<testcase name="[^"]*"/, '<testcase'), path.join(SCHEMAS, 'gitlab-junit.xsd')),
    /name/,
  );
});

test('as GitLab reads it: one testcase per test, the failure’s claim, the skip’s reason, the rules as properties', () => {
  const xml = junit();
  assert.match(xml, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites /);
  const cases = [
    ...xml.matchAll(
      /<testcase name="([^"]*)" classname="([^"]*)" file="([^"]*)" time="([\d.]+)">([\s\S]*?)<\/testcase>/g,
    ),
  ];
  assert.equal(cases.length, 4, xml);
  assert.equal(new Set(cases.map((c) => `${c[2]}\n${c[1]}`)).size, 4, 'GitLab keeps only the first of two equal names');
  const failed = cases.find((c) => c[1] === FAILING && c[2]!.startsWith('local › '));
  const skipped = cases.find((c) => c[1] === SKIPPED && c[2]!.startsWith('local-one-client › '));
  assert.ok(failed && skipped, xml);
  assert.equal(cases.filter((c) => /<failure /.test(c[5]!)).length, 2);
  assert.equal(cases.filter((c) => /<skipped /.test(c[5]!)).length, 1);
  assert.equal(failed[3], 'tests/payments/headers-and-sca.spec.ts', 'the file, from the repository’s root');
  assert.match(failed[5]!, /<property name="rule" value="SCA-09"\/>/);
  // GitLab shows the failure's text, not its message attribute: both carry the claim.
  assert.match(
    failed[5]!,
    /<failure message="SCA-09 the submission is refused: SCA hd of another body" type="failed check">SCA-09 the submission is refused: SCA hd of another body\n\n {2}expected: a 4xx refusal\n {2}received: HTTP 201/,
  );
  assert.match(skipped[5]!, /<skipped message="([^"]*)">\1<\/skipped>/);
  assert.match(
    skipped[5]!,
    /<skipped message="needs a second client \(target\.clients\.secondary\), which profile local-one-client does not grant">/,
  );
  assert.match(
    xml,
    /<testsuite name="local › payments\/headers-and-sca\.spec\.ts" tests="2" failures="1" errors="0" skipped="0" /,
  );
  assert.match(
    xml,
    /<testsuite name="local-one-client › payments\/headers-and-sca\.spec\.ts" tests="2" failures="1" errors="0" skipped="1" /,
  );
});

test('the job summary GitHub’s template writes: the rules line, then the failed test with its rules and claim', () => {
  junit();
  const summary = runScript('ci-summary.ts', [path.join(runDir, 'results.json')], cleanEnv());
  assert.equal(summary.status, 0, summary.stderr);
  assert.match(summary.stdout, /^### Rules \(local\): \d+ of \d+ documented rules assessed, 1 violated \(SCA-09\)$/m);
  assert.match(
    summary.stdout,
    /^### Rules \(local-one-client\): \d+ of \d+ documented rules assessed, 1 violated \(SCA-09\)$/m,
  );
  assert.match(
    summary.stdout,
    new RegExp(
      `^\\| payments/headers-and-sca\\.spec\\.ts › .* › ${FAILING} \\| SCA-09 .*\\| SCA-09 the submission is refused: SCA hd of another body: expected a 4xx refusal; received HTTP 201`,
      'm',
    ),
  );
  assert.match(summary.stdout, /^`1 passed, 1 failed, 0 skipped`$/m);
  assert.match(summary.stdout, /^`0 passed, 1 failed, 1 skipped`$/m);
});

test('text XML cannot hold is replaced, markup escaped, an attribute keeps its line breaks', async () => {
  assert.equal(
    xmlText('a\u0001b <&> \ud800 \u{1F600} \u001b[31mred\u001b[0m'),
    'a\uFFFDb &lt;&amp;&gt; \uFFFD \u{1F600} red',
  );
  assert.equal(xmlAttribute('say "x"\nthen\ty'), 'say &quot;x&quot;&#10;then&#9;y');
});
