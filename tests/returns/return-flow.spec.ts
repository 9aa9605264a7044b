/**
 * End to end, in business terms: the payer's bank pays, the beneficiary's bank is notified, reads
 * the incoming payment, sends the full amount back (return), and both banks query the statuses; and
 * a return that answers a rejected cancellation (FOCR). Each flow waits for two settlements (the
 * payment, then the return), so it runs from the worker's start in the background and the test checks
 * what it saw. What each flow sends is the observation it names (payNotifyReturn,
 * returnAfterRejectedCancellation: go to definition), declared in its takes() and checked without a
 * run by tests/unit/runner/observation-links.test.ts.
 */
import { test, takes } from '../../fixtures/test';
import { creditorPlaceHeld } from '../../checks/iso20022';
import { payNotifyReturn, returnAfterRejectedCancellation } from '../../arrange/observation-catalogue';
import {
  endsIn,
  holds,
  notificationArrived,
  notResolvedAs,
  statusServed,
  acceptedAnswer,
  acceptedInDeclaredShape,
  servedUntilFinal,
} from '../../checks/answers';
import { paymentAmount } from '../../messages/pacs008';
import { incomingMessage } from '../../client/flows/incoming';

test('flow: pay → notify → read incoming → full return → statuses', {
  tag: ['@RTR-01', '@RTR-33', '@RTR-35', '@STS-08'],
  ...takes({ observation: payNotifyReturn }),
}, async ({ api, verdicts, clients, notifications, observe }) => {
  const seen = await observe(payNotifyReturn);
  // The incoming side is the story's middle, asserted where the profile allows it, as preconditions: citing
  // INC-01 and INC-02 would skip the whole flow wherever notifications or a second client are not granted.
  if (notifications && clients.secondary) {
    verdicts.require(
      'INC-01',
      'a notification naming the payment reaches the beneficiary',
      notificationArrived(seen.notification, api.profile.polling.timeoutMs),
    );
    const read = seen.incomingRead!;
    verdicts.require('INC-02', 'the beneficiary reads the incoming payment', acceptedAnswer(read));
    // The flow goes on to the return whatever shape the read has: only its content check waits for INC-05.
    const incoming = incomingMessage(api, read)?.cdtTrfTxInf?.[0];
    if (incoming)
      verdicts.require(
        'INC-02',
        'the beneficiary sees the amount sent',
        // Its value and ccy, members of its own allowed (as incoming.spec.ts compares it).
        holds(incoming.intrBkSttlmAmt, paymentAmount(seen.original.message)),
      );
    else
      test.info().annotations.push({
        type: 'note',
        description: `INC-02's amount not compared: the incoming view is not under the declared root ${api.profile.messages.incomingPayment.root} (INC-05)`,
      });
  }
  verdicts.originalHeld(
    seen.answer.exchange,
    seen.final?.statusClass === 'rejected' ? seen.final.history.join(' → ') : undefined,
  );
  creditorPlaceHeld(verdicts, seen.answer.exchange);
  verdicts.check('RTR-01', 'the full return is accepted', acceptedAnswer(seen.answer.exchange));
  verdicts.require(
    'RTR-37',
    'the return’s answer names its paymentsServiceId',
    statusServed(seen.final, seen.answer.exchange),
  );
  verdicts.check('RTR-35', 'the return’s status is served until final', servedUntilFinal(seen.final));
  verdicts.check('RTR-01', 'the return settles accepted', endsIn(seen.final, 'accepted'));
  verdicts.check(
    'STS-08',
    'the returned payment’s own status is final and unchanged',
    endsIn(seen.paymentFinalAfterReturn, 'accepted'),
  );
});

test('flow: cancel after the batch is sent → rejected → the beneficiary returns the payment (FOCR)', {
  tag: ['@CXL-03', '@RTR-01', '@RTR-18', '@RTR-23', '@RTR-35'],
  ...takes({ observation: returnAfterRejectedCancellation }),
}, async ({ api, verdicts, observe }) => {
  const seen = await observe(returnAfterRejectedCancellation);
  verdicts.require(
    'CXL-01',
    'the cancellation request is answered',
    acceptedInDeclaredShape(seen.cancellation.exchange, 'CXL-06'),
  );
  verdicts.check(
    'CXL-03',
    'the cancellation after the batch is not confirmed',
    notResolvedAs(seen.resolution, 'confirmed', api.profile.messages.resolution.confirmed),
  );
  verdicts.check('CXL-03', 'the payment settles', endsIn(seen.final, 'accepted'));
  creditorPlaceHeld(verdicts, seen.returned.exchange);
  for (const rule of ['RTR-18', 'RTR-23'])
    verdicts.check(
      rule,
      'a return answering a cancellation request (FOCR, addtlInf, rtrdInstdAmt) is accepted',
      acceptedAnswer(seen.returned.exchange),
    );
  verdicts.require(
    'RTR-37',
    'the return’s answer names its paymentsServiceId',
    statusServed(seen.returnFinal, seen.returned.exchange),
  );
  verdicts.check('RTR-35', 'the return’s status is served until final', servedUntilFinal(seen.returnFinal));
  verdicts.check('RTR-01', 'the return settles accepted', endsIn(seen.returnFinal, 'accepted'));
});
