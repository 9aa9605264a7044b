/**
 * The declared message shapes this worker saw the target accept, per client. The suite cannot tell a
 * refusal of a return from a refusal of where its creditor name stands (§2.5's table and example put
 * it at two places: ISO-03, an assumption), nor a refusal of a refund from one of the declared pacs.007
 * shape (RFD-07), until a return (refund) in that shape, sent as valid, was accepted: from then on a
 * refusal is the documented rule's, whatever shape it comes in. Per client, because each fault of the
 * kill matrix has clients of its own.
 */
export type DeclaredShape = 'return' | 'refund';

const accepted: Record<DeclaredShape, Set<string>> = { return: new Set(), refund: new Set() };

/** A return (refund) in the declared shape, sent by `clientId` as valid, was accepted. */
export function noteShapeAccepted(shape: DeclaredShape, clientId: string | undefined): void {
  if (clientId) accepted[shape].add(clientId);
}

/** Returns and refunds in the declared shape answered 2xx, by id: accepted once their status is final accepted. */
const sent = new Map<string, { shape: DeclaredShape; clientId: string; at: number }>();

/** A return (refund) in the declared shape was answered 2xx naming `id`: it confirms the shape if it settles accepted. */
export function noteShapeSent(shape: DeclaredShape, id: string, clientId: string | undefined): void {
  if (clientId) sent.set(id, { shape, clientId, at: Date.now() });
}

/** The final status of `id` was read: an accepted return (refund) sent in the declared shape confirms it. */
export function noteFinal(id: string, accepted: boolean): void {
  const shaped = sent.get(id);
  if (!shaped) return;
  sent.delete(id);
  if (accepted) noteShapeAccepted(shaped.shape, shaped.clientId);
}

/** Whether a return (refund) in the declared shape sent by `clientId` was accepted in this worker. */
export const shapeAccepted = (shape: DeclaredShape, clientId: string | undefined): boolean =>
  clientId !== undefined && accepted[shape].has(clientId);

/** The client an exchange was sent as (its X-Client-Id). */
export function senderOf(exchange: { request: { headers: Record<string, string> } }): string | undefined {
  const [, value] =
    Object.entries(exchange.request.headers).find(([name]) => name.toLowerCase() === 'x-client-id') ?? [];
  return value;
}

/**
 * Whether `clientId`'s messages in the declared shape are seen accepted, waiting (up to `timeoutMs`)
 * while some it sent are still settling: a refusal met before this worker's first return settled is
 * not yet the shape's. Resolves false at once where nothing of that shape is in flight.
 */
export async function shapeSeenAccepted(shape: DeclaredShape, clientId: string, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  // One never followed to its final status stops counting after the wait a test would give it.
  const inFlight = (): boolean =>
    [...sent.values()].some((s) => s.shape === shape && s.clientId === clientId && Date.now() - s.at < timeoutMs);
  while (!shapeAccepted(shape, clientId) && inFlight() && Date.now() < until)
    await new Promise((resolve) => setTimeout(resolve, 50));
  return shapeAccepted(shape, clientId);
}
