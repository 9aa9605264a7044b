/**
 * Private seeded faker instances for the message factories, loaded without faker's main entry.
 *
 * Why: `import { Faker, en_GB } from '@faker-js/faker'` evaluates every locale faker ships (tens of
 * megabytes of memory), in the Playwright runner (which imports every spec to list the tests) and in
 * each worker. The `locale/en_GB` subpath loads only en_GB, en and base (a fraction of it), but it
 * exports a ready instance and neither the Faker class nor the definitions. Its `rawDefinitions` are
 * the merged [en_GB, en, base] (what `new Faker({ locale: [en_GB, en, base] })` builds), and its
 * constructor is the Faker class, so a new instance from both draws exactly what one built from the
 * main entry would (pacs.008's [en_GB, en] too: none of its draws reads a base-only definition).
 */
import type { Faker } from '@faker-js/faker';
import { faker as enGbFaker } from '@faker-js/faker/locale/en_GB';

const FakerClass = enGbFaker.constructor as typeof Faker;

/**
 * A new instance over the en_GB, en and base definitions. Each factory keeps its own and reseeds it
 * per message: a shared instance's sequence would depend on what else drew from it first.
 */
export function newSeededFaker(): Faker {
  return new FakerClass({ locale: enGbFaker.rawDefinitions });
}
