/**
 * The robustness rules on every other submitting operation (POST camt056, pacs004, pacs007; spec §4.4,
 * §7): the bodies of robustnessCasesForEveryOperation, each after a valid twin on the same operation,
 * with an SCA hd over the exact bytes sent. POST pacs008 runs the whole catalogue (malformed.spec.ts).
 */
import { test, takes } from '../../fixtures/test';
import { OPERATION_DRIVERS } from '../../arrange/operations';
import { robustnessCasesForEveryOperation } from '../../cases/robustness-cases';
import { judgeUnusualBody, rulesOfCase, titleOfCase } from '../../checks/robustness-oracle';

const drivers = [OPERATION_DRIVERS.cancel, OPERATION_DRIVERS.returnPayment, OPERATION_DRIVERS.refund];

for (const driver of drivers) {
  test.describe(`${driver.op}: unusual bodies`, () => {
    for (const c of robustnessCasesForEveryOperation) {
      const details = { tag: [...rulesOfCase(c).map((r) => `@${r}`), `@op:${driver.op}`], ...takes(...driver.takes) };
      test(titleOfCase(c), details, async ({ api, verdicts, clients, seed, settledOriginals }) => {
        const send = await driver.prepare({ api, verdicts, clients, seed, settledOriginals });
        driver.acceptTwin(verdicts, await send('valid twin'));
        const mutant = await send(
          `unusual body: ${c.name}`,
          c.contentType ? () => ({ headers: { 'content-type': c.contentType! } }) : undefined,
          (valid, root) => c.body(valid, root),
        );
        judgeUnusualBody(verdicts, api.profile, c, mutant, driver.op);
      });
    }
  });
}
