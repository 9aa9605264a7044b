/**
 * The SCA hd claim (spec §5) is a hash of the exact bytes on the wire. If bodyHash hashed a
 * re-serialised or differently encoded body, valid submissions with non-ASCII content would fail the
 * SCA check and "hd mismatch" negative cases could pass by accident.
 * Run: node --import tsx --test tests/unit/transport/body-hash.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { bodyHash } from '../../../transport/body-hash';

const sha256b64 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('base64');

test('known vectors: sha256 of "" and of "abc"', () => {
  assert.equal(bodyHash(''), '47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=');
  assert.equal(bodyHash(new Uint8Array()), '47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=');
  // FIPS 180-2 test vector ba7816bf...f20015ad, in Base64.
  assert.equal(bodyHash('abc'), 'ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=');
});

test('the result is standard Base64 (not base64url), 44 characters', () => {
  for (let i = 0; i < 50; i++) {
    const h = bodyHash(`body-${i}`);
    assert.match(h, /^[A-Za-z0-9+/]{43}=$/);
  }
});

for (const [name, text] of [
  ['é (U+00E9)', '{"nm":"Zoé Müller"}'],
  ['emoji (astral plane, surrogate pair in JS)', '{"ustrd":["paid 💷 thanks 🙂"]}'],
  ['NUL', '{"nm":"a\u0000b"}'],
  ['CJK', '{"nm":"山田太郎"}'],
] as const) {
  test(`non-ASCII body, ${name}: the UTF-8 bytes are hashed, as a string and as bytes alike`, () => {
    const utf8 = Buffer.from(text, 'utf8');
    assert.equal(bodyHash(text), sha256b64(utf8));
    assert.equal(bodyHash(utf8), sha256b64(utf8));
    assert.equal(bodyHash(new Uint8Array(utf8)), sha256b64(utf8));
    // Not Latin-1 nor UTF-16: those encodings give other bytes, so another hash.
    if ([...text].some((c) => c.codePointAt(0)! > 0x7f)) {
      assert.notEqual(bodyHash(text), sha256b64(Buffer.from(text, 'latin1')));
      assert.notEqual(bodyHash(text), sha256b64(Buffer.from(text, 'utf16le')));
    }
  });
}

test('bytes that are not valid UTF-8 are hashed as they are', () => {
  const bytes = Uint8Array.from([0x7b, 0xff, 0xfe, 0xc3, 0x28, 0x7d]);
  assert.equal(bodyHash(bytes), sha256b64(bytes));
  assert.notEqual(
    bodyHash(bytes),
    bodyHash(Buffer.from(bytes).toString('utf8')),
    'decoding to a string would replace bytes with U+FFFD',
  );
});

test('a re-serialised body gives a DIFFERENT hash: hd covers bytes, not JSON meaning', () => {
  const sent = '{"grpHdr":{"msgId":"M1","nbOfTxs":"1"},"amt":{"value":1.0,"ccy":"GBP"},"nm":"é"}';
  const variants: Record<string, string> = {
    whitespace: '{ "grpHdr": { "msgId": "M1", "nbOfTxs": "1" }, "amt": { "value": 1.0, "ccy": "GBP" }, "nm": "é" }',
    'pretty-printed': JSON.stringify(JSON.parse(sent), null, 2),
    'key order': '{"amt":{"value":1.0,"ccy":"GBP"},"grpHdr":{"msgId":"M1","nbOfTxs":"1"},"nm":"é"}',
    '\\u escapes': '{"grpHdr":{"msgId":"M1","nbOfTxs":"1"},"amt":{"value":1.0,"ccy":"GBP"},"nm":"\\u00e9"}',
    '1.0 vs 1': '{"grpHdr":{"msgId":"M1","nbOfTxs":"1"},"amt":{"value":1,"ccy":"GBP"},"nm":"é"}',
    'trailing newline': `${sent}\n`,
    CRLF: `${sent}\r\n`,
    BOM: `\ufeff${sent}`,
    'JSON.stringify(JSON.parse())': JSON.stringify(JSON.parse(sent)),
  };
  const original = bodyHash(sent);
  for (const [what, text] of Object.entries(variants)) {
    assert.deepEqual(JSON.parse(text.replace(/^\ufeff/, '')), JSON.parse(sent), `${what}: same JSON meaning`);
    assert.notEqual(bodyHash(text), original, `${what}: must give another hash`);
  }
});

test('identical bytes give an identical hash (deterministic)', () => {
  const text = '{"a":"ü"}';
  assert.equal(bodyHash(text), bodyHash(text));
  assert.equal(bodyHash(text), bodyHash(Buffer.from(text)));
});
