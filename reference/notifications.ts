/**
 * Notifications of incoming payments (spec §6; payload per README). Fire-and-forget: a slow or
 * dead receiver must never delay settlement, so nothing awaits the POST and errors are dropped.
 */
export interface IncomingNotification {
  event: 'payment.incoming';
  paymentsServiceId: string;
  creationDateTime: string;
}

/** Settlement never waits for it: a receiver on a loaded machine may take seconds to read a request. */
const TIMEOUT_MS = 10_000;

export function sendNotification(url: string, notification: IncomingNotification): void {
  void fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(notification),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  })
    .then((res) => res.body?.cancel())
    .catch(() => undefined);
}
