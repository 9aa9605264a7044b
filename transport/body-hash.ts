/** The SCA `hd` claim (spec §5): Base64 SHA-256 over the exact bytes that go on the wire. */
import { createHash } from 'node:crypto';

export function bodyHash(body: Uint8Array | string): string {
  return createHash('sha256').update(body).digest('base64');
}
