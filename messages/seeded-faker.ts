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

/** Countries of the SEPA scheme a return's agents are drawn from. */
const BIC_COUNTRIES = ['DE', 'NL', 'FR', 'IT', 'ES', 'BE', 'AT', 'IE', 'FI', 'LU'] as const;

/**
 * A BIC every validator takes: faker's own may put 0 or 1 first in the location code, O second, or a
 * branch code starting with X other than XXX, which ISO 20022's older BICIdentifier pattern
 * (`[A-Z]{6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3})?`, still used by many validators) and SWIFT refuse.
 */
export function drawBic(faker: Faker): string {
  const bank = faker.string.alpha({ length: 4, casing: 'upper' });
  const country = faker.helpers.arrayElement(BIC_COUNTRIES);
  const location = `${faker.helpers.arrayElement([...'ABCDEFGHIJKLMNOPQRSTUVWXYZ23456789'])}${faker.helpers.arrayElement([...'ABCDEFGHIJKLMNPQRSTUVWXYZ0123456789'])}`;
  return `${bank}${country}${location}${faker.datatype.boolean() ? 'XXX' : ''}`;
}
