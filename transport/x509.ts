/**
 * A minimal self-signed X.509 v1 certificate built by hand in DER (Node can parse certificates but
 * not make them, and no key or certificate may be committed): enough for the x5c/x5u attack tokens,
 * whose whole point is a certificate the attacker made for their own key.
 */
import { sign, type KeyObject } from 'node:crypto';

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v >>= 8) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

const tlv = (tag: number, ...content: Buffer[]): Buffer => {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
};
const seq = (...c: Buffer[]): Buffer => tlv(0x30, ...c);
const set = (...c: Buffer[]): Buffer => tlv(0x31, ...c);
const NULL = Buffer.from([0x05, 0x00]);
const SHA256_WITH_RSA = Buffer.from('06092a864886f70d01010b', 'hex'); // 1.2.840.113549.1.1.11
const COMMON_NAME = Buffer.from('0603550403', 'hex'); // 2.5.4.3

function utcTime(date: Date): Buffer {
  const text = `${date.toISOString().replace(/[-:T]/g, '').slice(2, 14)}Z`; // YYMMDDHHMMSSZ
  return tlv(0x17, Buffer.from(text, 'ascii'));
}

function name(cn: string): Buffer {
  return seq(set(seq(COMMON_NAME, tlv(0x0c, Buffer.from(cn, 'utf8')))));
}

/** DER of a certificate for `publicKey`, signed (sha256WithRSAEncryption) by `signingKey`. */
export function selfSignedCertificate(publicKey: KeyObject, signingKey: KeyObject, cn = 'attacker.example'): Buffer {
  const algorithm = seq(SHA256_WITH_RSA, NULL);
  const now = Date.now();
  const tbs = seq(
    tlv(0x02, Buffer.from([0x01, 0x23, 0x45])), // serial number
    algorithm,
    name(cn),
    seq(utcTime(new Date(now - 86_400_000)), utcTime(new Date(now + 86_400_000))),
    name(cn),
    publicKey.export({ type: 'spki', format: 'der' }),
  );
  const signature = sign('sha256', tbs, signingKey);
  return seq(tbs, algorithm, tlv(0x03, Buffer.from([0x00]), signature));
}

export function certificatePem(der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}
