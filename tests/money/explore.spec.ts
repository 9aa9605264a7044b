/**
 * Stateful exploration of money flows: fast-check generates sequences of payments, repeats,
 * reads, cancellations, returns, refunds and concurrent bursts, across the payer, the beneficiary and
 * a third institution, and the model judges every answer by the documented invariants (what goes back
 * never exceeds the original, references and idempotency per client, amounts within ISO 4217 and
 * ISO 20022). A failing sequence is shrunk to the shortest that still fails and shown step by step.
 *
 * Tagged @explore: left out of ordinary runs; `npm run explore` runs them with the profile's budget
 * (`exploration`), `npm test` with a small one. Each lane takes half the budget, on its own worker.
 */
import { test } from '../../fixtures/test';

test('explore: money flows between one payer and one beneficiary', {
  tag: [
    '@explore',
    '@MNY-01',
    '@IDEM-02',
    '@MNY-04',
    '@MNY-05',
    '@op:submitPayment',
    '@op:returnPayment',
    '@op:refund',
  ],
}, async ({ explore }) => {
  await explore('payer and beneficiary');
});

test('explore: money flows with a third institution', {
  tag: ['@explore', '@XCL-01', '@MNY-01', '@op:submitPayment', '@op:cancel', '@op:returnPayment', '@op:refund'],
}, async ({ explore }) => {
  await explore('three institutions');
});
