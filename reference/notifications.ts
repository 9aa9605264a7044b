/**
 * Notifications of incoming payments (spec §6; payload per README). Fire-and-forget: a slow or
 * dead receiver must never delay settlement, so nothing awaits the POST and errors are dropped.
 * node:http rather than fetch: one is sent for every settled payment, and fetch's streams and
 * abort signals cost the reference more than the POST itself.
 */
import http from 'node:http';
import https from 'node:https';

export interface IncomingNotification {
  event: 'payment.incoming';
  paymentsServiceId: string;
  creationDateTime: string;
}

/** Settlement never waits for it: a receiver on a loaded machine may take seconds to read a request. */
const TIMEOUT_MS = 10_000;

export function sendNotification(url: string, notification: IncomingNotification): void {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return;
  }
  const send = target.protocol === 'https:' ? https.request : target.protocol === 'http:' ? http.request : undefined;
  if (!send) return;
  const body = JSON.stringify(notification);
  const request = send(
    target,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      timeout: TIMEOUT_MS,
    },
    (response) => response.resume(),
  );
  request.on('timeout', () => request.destroy());
  request.on('error', () => undefined);
  request.end(body);
}
