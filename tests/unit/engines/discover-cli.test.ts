/**
 * `npm run discover` end to end, as a user runs it: a profile whose reference dialect is not the
 * default (pacs.007 root, interim code, SCA status, 202 for the operations §4.4 gives no status, ACSC
 * passed through before ACCC), discovery against a reference of its own, the
 * discovered file (each answer with its redacted exchange, no JWT signature, no secret), the diff, and
 * --write adopting exactly the fields that differ. And the live guard: a live profile is refused
 * unless confirmed, before any request.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cleanEnv, root, runScript, tempDir } from '../support/cli';
import { setJsonValue } from '../../../messages/json-edit';
import { loadProfile } from '../../../profile/profile';
import { MAX_REQUESTS } from '../../../engines/discovery/session';

const local = readFileSync(path.join(root, 'environments', 'local.json'), 'utf8');

test('discover --write against a non-default dialect: bounded, recorded, adopted in place', {
  timeout: 120_000,
}, () => {
  const dir = tempDir('discover');
  const dialect = {
    refundRoot: 'fitoFIPmtRvsl',
    interimStatus: 'PDNG',
    'refusalStatus.sca': 403,
    acceptanceStatus: 202,
    settlingStatus: 'ACSC',
  };
  const original = setJsonValue(setJsonValue(local, ['name'], 'demo'), ['target', 'dialect'], dialect);
  writeFileSync(path.join(dir, 'demo.json'), original);

  const ran = runScript('discover.ts', ['--project', 'demo', '--dir', dir, '--write'], cleanEnv());
  assert.equal(ran.status, 0, ran.stderr + ran.stdout);
  const cost = /discover demo: (\d+) requests \((\d+) triggers\), (\d+) created/.exec(ran.stdout);
  assert.ok(cost, ran.stdout);
  assert.ok(Number(cost[1]) > 20 && Number(cost[1]) <= MAX_REQUESTS, `bounded: ${cost[1]} requests`);
  assert.ok(Number(cost[2]) > 150, `every refusal trigger is asked, the return catalogue's too: ${cost[2]} triggers`);
  assert.ok(Number(cost[3]) >= 1, 'the probes create what they print');
  assert.match(
    ran.stdout,
    /✖ messages\.refund\.root +profile "fIToFIPmtRvsl" \(not set: the suite’s default\); observed "fitoFIPmtRvsl" → --write sets "fitoFIPmtRvsl" {2}\[RFD-07\]/,
  );
  assert.match(
    ran.stdout,
    /adopted into .*demo\.json: expectations\.refusalStatus\.sca, expectations\.tokenErrorCodes, expectations\.statusCodes\.pending, expectations\.statusCodes\.rejected, expectations\.cancelUnknownPayment, messages\.refund\.root, expectations\.acceptanceStatus\.cancel, expectations\.acceptanceStatus\.returnPayment, expectations\.acceptanceStatus\.refund/,
  );
  assert.match(ran.stdout, /fixpoint: the adopted profile admits every one of the \d+ answers discovery observed/);

  // Adopted: exactly the fields that differ and the two the default left open (tokenErrorCodes, cancelUnknownPayment), each in place; the profile loads.
  // ACSC, passed through before ACCC, is interim for this target: discovery followed the payment until its status stopped changing.
  const adopted = readFileSync(path.join(dir, 'demo.json'), 'utf8');
  const profile = loadProfile('demo', dir);
  assert.deepEqual(
    [
      profile.messages.refund.root,
      profile.expectations.statusCodes.pending,
      profile.expectations.statusCodes.accepted,
      profile.expectations.refusalStatus.sca,
      profile.expectations.acceptanceStatus,
    ],
    ['fitoFIPmtRvsl', ['PDNG', 'ACSC'], ['ACCC'], [403], { cancel: [202], returnPayment: [202], refund: [202] }],
  );
  const changed = adopted.split('\n').filter((line) => !original.split('\n').includes(line));
  assert.deepEqual(changed, [
    '      "sca": [403],',
    '      "pending": ["PDNG", "ACSC"],',
    '      "rejected": ["RJCT", "RJTC"],',
    '    "rejectTrigger": { "creditorAccount": "99999999", "reasonCode": "AC04" },',
    '    "tokenErrorCodes": "generic",',
    '    "cancelUnknownPayment": "notFound",',
    '    "acceptanceStatus": { "cancel": [202], "returnPayment": [202], "refund": [202] }',
    '  "messages": { "refund": { "root": "fitoFIPmtRvsl" } },',
  ]);

  // The discovered file: every answer with the exchange that showed it, nothing secret.
  const text = readFileSync(path.join(dir, 'demo.discovered.json'), 'utf8');
  const discovered = JSON.parse(text) as {
    cost: { requests: number };
    observations: { key: string; observed?: unknown; exchange?: { request: string; status: number } }[];
  };
  assert.equal(discovered.cost.requests, Number(cost[1]));
  const refund = discovered.observations.find((o) => o.key === 'messages.refund.root')!;
  assert.deepEqual(
    [refund.observed, refund.exchange?.request, refund.exchange?.status],
    ['fitoFIPmtRvsl', 'POST /payments/pacs007/v08', 202],
  );
  assert.doesNotMatch(text, /eyJ[\w-]+\.eyJ[\w-]+\.[\w-]{20,}/, 'no signed JWT');
  assert.doesNotMatch(text, /-----BEGIN/, 'no key');
  assert.match(text, /Bearer \[REDACTED hmac:[0-9a-f]{12}\]/);
});

test('discover refuses a live profile unless PAYMENTS_CONFIRM_LIVE names it', () => {
  const ran = runScript('discover.ts', ['--project', 'live'], cleanEnv());
  assert.equal(ran.status, 2);
  assert.match(
    ran.stderr,
    /profile live targets a LIVE deployment\. Set PAYMENTS_CONFIRM_LIVE=live to confirm; discovery then runs only read-safe probes/,
  );
});
