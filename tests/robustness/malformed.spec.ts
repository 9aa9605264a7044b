/**
 * Malformed input to POST pacs008 (spec §4.2, §7): refused with a 4xx, never a 2xx and never a 5xx
 * (ROB-01); the status per refusal class is the profile's assumption (ROB-02). The valid twin goes
 * first, and the SCA hd always matches the bytes sent, so only the body can be at fault.
 */
import { test, expect } from '../../fixtures/test';
import { RawBody } from '../../fixtures/api';
import { OVERSIZED_MIN_BYTES, robustnessCases } from '../../fixtures/catalogues/robustness-cases';
import { submitPayment } from '../../fixtures/flows';
import { brief } from '../../fixtures/verdicts';
import { buildPacs008 } from '../../helpers/messages/pacs008';

test.describe('robustness: malformed submissions', () => {
  for (const c of robustnessCases) {
    test(`refuses: ${c.name}`, { tag: ['@ROB-01', '@ROB-02'] }, async ({ api, verdicts, seed }) => {
      const twin = await submitPayment(api, buildPacs008({ seed }), { label: 'valid twin' });
      verdicts.expectStatus(twin.exchange, [201], 'the valid twin must be accepted, or the case proves nothing');
      const bytes = c.body(JSON.stringify(buildPacs008({ seed })));
      if (c.refusal === 'tooLarge') expect(Buffer.byteLength(bytes), 'the oversized body is over 2 MiB').toBeGreaterThan(OVERSIZED_MIN_BYTES);
      const { exchange } = await submitPayment(api, new RawBody(bytes), {
        ...(c.contentType ? { headers: { 'content-type': c.contentType } } : {}),
        label: `malformed: ${c.name}`,
      });
      expect(exchange.response.status, `never a 5xx ${brief(exchange)}`).toBeLessThan(500);
      verdicts.expectRefused(exchange, c.refusal);
    });
  }

});
