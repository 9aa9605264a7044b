/**
 * Preloaded (`--require`) into every unit-test process npm test starts: the RSA-2048 keys npm test made
 * ahead (PAYMENTS_KEY_POOL, a JSON list of PEM) are this process's to hand out (transport/keys.ts
 * useKeysMadeAhead), and leave its environment at once, so that no process it starts inherits them:
 * two processes that hold the same keys must never register them at one reference. node --test's own
 * process, which starts the test files' processes, keeps them for those (node --test marks its
 * children with NODE_TEST_CONTEXT).
 */
import { useKeysMadeAhead } from '../../../transport/keys';

const pems = process.env.PAYMENTS_KEY_POOL;
if (pems && process.env.NODE_TEST_CONTEXT) {
  delete process.env.PAYMENTS_KEY_POOL;
  useKeysMadeAhead(JSON.parse(pems) as string[]);
}
