/**
 * The @slow lane (PAYMENTS_SLOW=1, the nightly template): an access token is refused after
 * expires_in (spec §2.1, §8), proven without tokenLifetimeControl by waiting the real lifetime out,
 * when it is at most the profile's bound (slowLane.tokenExpiry.maxWaitSeconds), and then the leeway a
 * server may allow for clock skew (RFC 7519 §4.1.4, "usually no more than a few minutes": Spring's
 * resource server allows 60 s, ASP.NET's 300 s; slowLane.tokenExpiry.leewaySeconds, default 300).
 */
import { test } from '../../fixtures/test';
import { submitPayment } from '../../client/flows/payment';
import { buildPacs008 } from '../../messages/pacs008';
import { requireId } from '../../checks/payment-answers';
import { refusedAs } from '../../checks/refusals';
import { hasStatus } from '../../checks/answers';
import { furtherVersions, tokenLeewaySeconds } from '../../profile/profile';
import { requestCancellation } from '../../client/flows/cancellation';
import { buildCamt056 } from '../../messages/camt056';
import type { Exchange } from '../../transport/http';

test.describe('access token expiry, waited out in real time', { tag: ['@slow'] }, () => {
  test('refuses: a token used after its expires_in, on submission and on the status read', {
    tag: ['@AT-05', '@op:submitPayment', '@op:paymentStatus', '@op:cancel'],
  }, async ({ api, verdicts, profile, seed }) => {
    const bound = profile.slowLane?.tokenExpiry?.maxWaitSeconds;
    if (bound === undefined)
      verdicts.skip({
        kind: 'not-applicable',
        why: `profile ${profile.name} sets no slowLane.tokenExpiry.maxWaitSeconds: the lane never waits unbounded`,
      });
    const issued = await api.requestToken({ label: 'a fresh access token, to wait out' });
    verdicts.require('TOK-01', 'the token request gets 200', hasStatus(issued, [200]));
    const body = issued.response.json as { access_token?: unknown; expires_in?: unknown };
    const lifetime = Number(body.expires_in);
    const accessToken = String(body.access_token);
    if (!(lifetime > 0 && lifetime <= bound!)) {
      verdicts.skip({
        kind: 'not-applicable',
        why: `expires_in is ${String(body.expires_in)} s, over the ${bound} s the profile lets the lane wait (slowLane.tokenExpiry.maxWaitSeconds)`,
      });
    }

    const payment = buildPacs008({ seed: `${seed}|before` });
    const paid = await submitPayment(api, payment, {
      accessToken,
      label: 'pay with the token within its lifetime',
    });
    verdicts.require('P8-01', 'the token works for a submission before it expires', hasStatus(paid.exchange, [201]));
    const id = requireId(api, verdicts, paid.exchange);
    const read = await api.read('paymentStatus', id, {
      accessToken,
      label: 'read the status with the token within its lifetime',
    });
    verdicts.require('STS-01', 'the token reads the status before it expires', hasStatus(read, [200]));

    // Within its lifetime, counted from the token's request (the target issued it no earlier): a newer
    // token of the same client halfway, which must not lengthen this one's life, and a last use
    // shortly before expires_in, which must still work (a token store that forgets it sooner, or
    // expires_in in other units than seconds, fails here; one that caches a check past the expiry is
    // seen by the uses after it).
    const requestedAt = Date.parse(issued.startedAt);
    const until = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms - Date.now())));
    test.setTimeout(test.info().timeout + (lifetime + tokenLeewaySeconds(profile) + 1) * 1000 + 30_000);
    await test.step('halfway through expires_in: a newer token of the same client', async () => {
      await until(requestedAt + (lifetime * 1000) / 2);
      const newer = await api.requestToken({ label: 'a newer token of the same client, halfway' });
      verdicts.require('TOK-01', 'the newer token request gets 200', hasStatus(newer, [200]));
    });
    const margin = Math.min(5, lifetime / 10);
    await until(requestedAt + (lifetime - margin) * 1000);
    const lastUse = await api.read('paymentStatus', id, {
      accessToken,
      label: `read the status with the token ${margin} s before its expires_in`,
    });
    // Judged only where its answer came before expires_in had passed since the token's request.
    if (Date.parse(lastUse.startedAt) + lastUse.durationMs < requestedAt + lifetime * 1000)
      verdicts.check(
        'AT-05',
        `the token still works ${margin} s before its expires_in (${lifetime} s)`,
        hasStatus(lastUse, [200]),
      );

    // Counted from the token's answer (the target issued it at most then), past expires_in and the
    // leeway, and one second more (a server may round it up).
    const leeway = tokenLeewaySeconds(profile);
    const waitMs = Date.parse(issued.startedAt) + issued.durationMs + (lifetime + leeway + 1) * 1000 - Date.now();
    await test.step(`wait out expires_in (${lifetime} s) and the leeway (${leeway} s)`, () =>
      new Promise((r) => setTimeout(r, Math.max(0, waitMs))));
    test.info().annotations.push({
      type: 'waited',
      description: `${Math.round(Math.max(0, waitMs) / 1000)} s for expires_in ${lifetime} s and a leeway of ${leeway} s`,
    });

    // The wait was the cost: one request more on each other route is cheap. A service may check the
    // expiry on some routes only (a gateway in front of some of them): besides the two operations
    // above, the cancellation of the payment paid before, and each further path version of the two.
    const pay = async (version?: string) =>
      (
        await submitPayment(api, buildPacs008({ seed: `${seed}|after${version ? `|${version}` : ''}` }), {
          accessToken,
          ...(version ? { version } : {}),
          label: `pay${version ? ` on ${version}` : ''} with the same token after expires_in`,
        })
      ).exchange;
    const readStatusOn = (version?: string) =>
      api.read('paymentStatus', id, {
        accessToken,
        ...(version ? { version } : {}),
        label: `read the status${version ? ` on ${version}` : ''} with the same token after expires_in`,
      });
    const cancel = async () =>
      (
        await requestCancellation(api, buildCamt056({ seed, original: payment }), {
          accessToken,
          label: 'cancel the payment with the same token after expires_in',
        })
      ).exchange;
    const afterExpiry: [string, () => Promise<Exchange>][] = [
      ['submitPayment', () => pay()],
      ['paymentStatus', () => readStatusOn()],
      ['cancel', cancel],
      ...furtherVersions(profile, 'submitPayment').map((v): [string, () => Promise<Exchange>] => [
        `submitPayment ${v}`,
        () => pay(v),
      ]),
      ...furtherVersions(profile, 'paymentStatus').map((v): [string, () => Promise<Exchange>] => [
        `paymentStatus ${v}`,
        () => readStatusOn(v),
      ]),
    ];
    for (const [what, send] of afterExpiry)
      verdicts.check(
        'AT-05',
        `${what} refuses the token after expires_in (${lifetime} s) and the leeway (${leeway} s)`,
        refusedAs(await send(), 'unauthenticated'),
      );
  });
});
