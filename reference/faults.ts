/**
 * Fault catalogue: deliberate, named defects used to prove that the conformance suite catches each
 * ledger rule. Every fault breaks exactly one rule; it is switched on globally (REF_FAULTS) or per
 * client (registration `faults`) and is checked as a plain `if` at the one place the rule is enforced.
 *
 * Per-operation faults: a rule that governs several operations (bearer token, X-Client-Id, Accept,
 * Content-Type, SCA) also has one fault per operation, named `<base>@<operation>` and generated from
 * the table `perOperation` below. A route declares its operation; `faultsFor(set, op, version)` gives the
 * set that route checks, in which `base` is on when `base`, `base@op` or `base@op:version` is in the
 * caller's set. The checks themselves stay `faults.has(base)`.
 *
 * Per-version faults (`base@op:version`, the table `perVersionFaults`): one operation has several path
 * versions (§4.2 "In the flow description the same operation is named POST /pacs008/v08"; §4.3 GET
 * pacs002/v10), and a server may forget a check on one route of the operation only.
 */
export interface FaultInfo {
  name: string;
  rule: string;
  description: string;
  /**
   * `history`: only the run's history sees it (it acts later than any single test's requests): the
   * kill matrix reads the history's verdict, and runs the fault's tests to their end, with the
   * observations and pool a normal run starts.
   */
  seenBy?: 'history';
  /** Rules whose tests send what the fault needs, besides its own rule's (the kill matrix runs them too). */
  exercisedBy?: readonly string[];
}

const f = <N extends string>(name: N, rule: string, description: string) => ({ name, rule, description }) as const;
/** A fault only the run's history sees (FaultInfo.seenBy), and the rules whose tests exercise it besides its own. */
const h = <N extends string>(name: N, rule: string, description: string, exercisedBy: readonly string[] = []) =>
  ({ name, rule, description, seenBy: 'history', exercisedBy }) as const;

/** The global faults; faultCatalogue adds the generated per-operation ones. */
const globalFaultCatalogue = [
  // Token endpoint
  f('token-answers-201', 'TOK-01', 'A successful token request is answered 201 instead of 200.'),
  f(
    'token-access-token-not-string',
    'TOK-02',
    'access_token is a one-element array holding the token (string interpolation still yields the token).',
  ),
  f('token-type-mac', 'TOK-03', 'token_type is "mac" instead of bearer.'),
  f('token-expires-in-fraction', 'TOK-04', 'expires_in is a non-integer number (TTL + 0.5).'),
  f('token-scope-renamed', 'TOK-05', 'The token response scope is "payments" instead of makePayments.'),
  f(
    'token-grants-list-with-makepayments',
    'TOK-05',
    'A scope list that names makePayments among others is granted as asked: the response scope echoes the list ("makePayments adminEverything").',
  ),
  f(
    'token-grants-scope-list',
    'TOK-05',
    'A scope asked for besides makePayments is granted with it: the response scope is the list "makePayments <asked>".',
  ),
  f(
    'token-grants-asked-scope-silently',
    'TOK-05',
    'A scope asked for instead of makePayments is granted, and the response leaves scope out (RFC 6749 §5.1: as requested).',
  ),
  f('token-accepts-missing-basic', 'TOK-06', 'Without a Basic header the client is taken from the assertion sub.'),
  f('token-ignores-client-secret', 'TOK-07', 'The client secret in the Basic header is not checked.'),
  f(
    'token-secret-prefix',
    'TOK-07',
    'The client secret is compared over the bytes sent only: a prefix of the registered secret is accepted.',
  ),
  f('token-accepts-any-grant-type', 'TOK-08', 'grant_type is not checked (missing or any value accepted).'),
  f('token-scope-optional', 'TOK-09', 'A token request without scope is accepted.'),
  f('token-accepts-json-body', 'TOK-10', 'A JSON body is parsed like a form body.'),
  f(
    'token-accepts-missing-assertion',
    'TOK-11',
    'A token request without assertion is accepted on the Basic credentials alone.',
  ),
  // Authentication JWT
  f(
    'token-accepts-alg-none',
    'AJWT-01',
    'An assertion with alg none (any spelling) is accepted without a signature check.',
  ),
  f(
    'token-accepts-hs256-public-key',
    'AJWT-01',
    "An assertion with header alg HS256 is verified by HMAC keyed with the client's registered public key text (RFC 8725 §2.1).",
  ),
  f('token-skips-signature', 'AJWT-02', 'The assertion signature is not verified (alg RS256 still required).'),
  f(
    'token-key-of-any-client',
    'AJWT-02',
    "The assertion's key is the one registered with its kid by any client, and iss and sub are checked against that client's: another client's whole assertion gets the caller a token.",
  ),
  f('token-ignores-kid', 'AJWT-03', 'The assertion header kid is not checked.'),
  f(
    'token-kid-any-registered',
    'AJWT-03',
    "The assertion kid may be any client's registered kid; the signature is still verified with the authenticated client's key.",
  ),
  f('token-ignores-typ', 'AJWT-04', 'The assertion header typ is not checked.'),
  f('token-iss-casefold', 'AJWT-05', 'The assertion iss is compared with the registered one ignoring letter case.'),
  f('token-kid-casefold', 'AJWT-03', 'The assertion kid is compared with the registered one ignoring letter case.'),
  f('token-sub-casefold', 'AJWT-06', 'The assertion sub is compared with the client id ignoring letter case.'),
  f('token-typ-jose', 'AJWT-04', 'The assertion header typ JOSE (RFC 7515) is accepted beside JWT.'),
  f('token-ignores-iss', 'AJWT-05', 'The assertion iss is not checked.'),
  f('token-ignores-sub', 'AJWT-06', 'The assertion sub is not checked.'),
  f(
    'token-sub-any-registered-client',
    'AJWT-06',
    'The assertion sub must name a registered client, not necessarily the authenticated one.',
  ),
  f('token-ignores-exp', 'AJWT-07', 'The assertion exp is neither required nor checked.'),
  f(
    'token-verified-jti-trusted',
    'AJWT-07',
    'An assertion carrying the jti of one verified before is taken unread: its signature and claims (exp among them) are not checked again, the verification cached by jti.',
  ),
  f(
    'token-ages-by-iat-not-exp',
    'AJWT-07',
    'An assertion issued over five minutes ago (by its iat) is refused; exp must be a NumericDate but is never compared with the time.',
  ),
  f('token-ignores-nbf', 'AJWT-08', 'The assertion nbf is neither required nor checked.'),
  f(
    'token-nbf-presence-only',
    'AJWT-08',
    'The assertion nbf must be present; a value that is not a number is never compared with the time.',
  ),
  f('token-iat-optional', 'AJWT-09', 'The assertion iat is not required.'),
  f('token-iat-presence-only', 'AJWT-09', 'The assertion iat must be present; a value that is not a number is taken.'),
  f('token-jti-optional', 'AJWT-10', 'The assertion jti is not required.'),
  f('token-trusts-embedded-jwk', 'AJWT-11', 'An assertion carrying a jwk header is verified with that embedded key.'),
  f('token-rejects-extra-claims', 'AJWT-12', 'An assertion with claims beyond the documented ones is refused.'),
  // Authentication JWT: RFC 8725 attacks (README "JWT attack faults" says how a client builds each token)
  f(
    'token-trusts-x5c',
    'AJWT-11',
    'An assertion carrying an x5c header is verified with the key of its first (leaf) certificate; the chain is not checked.',
  ),
  f(
    'token-trusts-x5u',
    'AJWT-11',
    'An assertion carrying an x5u header is verified with the key of the certificate fetched from that URL (loopback URLs only).',
  ),
  f(
    'token-trusts-jku',
    'AJWT-11',
    'An assertion carrying a jku header is verified with the key of the JWK Set fetched from that URL (loopback URLs only).',
  ),
  f(
    'token-ignores-crit',
    'AJWT-13',
    'An assertion whose crit header names an extension the service does not understand is accepted (crit is ignored).',
  ),
  f(
    'token-honours-b64-false',
    'AJWT-13',
    'An assertion with b64 false (RFC 7797) is verified over its unencoded payload, which is read as the claims.',
  ),
  f(
    'token-alg-first-member',
    'AJWT-01',
    'The alg check reads the first alg member of the header text while verification uses the parsed header (last member): RS256 then none passes unsigned.',
  ),
  f(
    'token-accepts-rsa-family-alg',
    'AJWT-01',
    'An assertion is verified with whatever RSA-family alg its header names (RS384, RS512, PS256, PS384, PS512).',
  ),
  f(
    'token-accepts-psychic-signature',
    'AJWT-01',
    'An ES256 assertion with the all-zero signature (r = s = 0, CVE-2022-21449) is accepted.',
  ),
  // Key registration
  f('key-accepts-non-rsa', 'KEY-01', 'A registered EC/Ed25519 key is used with its own algorithm (ES256/EdDSA).'),
  f('token-accepts-rsa-1024', 'KEY-02', 'A registered RSA key under 2048 bits is used.'),
  f(
    'key-length-in-bytes',
    'KEY-02',
    'A registered RSA key is measured in whole bytes: a modulus of 2041 to 2047 bits passes as 2048.',
  ),
  f(
    'key-accepts-encrypted-pem',
    'KEY-03',
    'A registered password-encrypted PEM is accepted and the assertion signature is not checked for that client.',
  ),
  f('key-accepts-non-pem', 'KEY-04', 'A registered key in DER (base64) or JWK form is used.'),
  // Access token use
  f('bearer-optional', 'AT-01', 'A payments request without Authorization is served as the X-Client-Id client.'),
  f(
    'bearer-accepts-unknown',
    'AT-02',
    'An unknown (malformed or forged) bearer token is served as the X-Client-Id client.',
  ),
  f(
    'bearer-signature-unchecked',
    'AT-02',
    'A JWT access token is decoded, not verified: one whose signature was altered is taken as its sub’s.',
  ),
  f('client-id-header-optional', 'AT-03', 'A missing X-Client-Id defaults to the token’s client.'),
  f('client-id-mismatch-ignored', 'AT-04', 'X-Client-Id naming another client is not refused.'),
  f('bearer-never-expires', 'AT-05', 'Access tokens are accepted after expiry.'),
  f('answers-non-json', 'AT-06', 'Success bodies are sent as Content-Type text/plain (the JSON text pre-serialised).'),
  f('content-type-unchecked', 'AT-07', 'A payments POST is parsed as JSON whatever its Content-Type.'),
  f(
    'content-type-absent-taken',
    'AT-07',
    'A payments POST with no Content-Type is parsed as JSON (one declared otherwise is still refused).',
  ),
  // SCA JWT
  f('sca-optional', 'SCA-01', 'A submission without sca-token is accepted without SCA.'),
  f('sca-skips-signature', 'SCA-02', 'The SCA signature is not verified (alg RS256 still required).'),
  f(
    'sca-key-of-any-client',
    'SCA-02',
    "The SCA key is the one registered with the JWT's kid by any client, and iss is checked against that client's: another client's whole SCA JWT is accepted.",
  ),
  f(
    'sca-accepts-hs256-public-key',
    'SCA-02',
    "An SCA JWT with header alg HS256 is verified by HMAC keyed with the client's registered public key text (RFC 8725 §2.1).",
  ),
  f('sca-kid-casefold', 'SCA-03', 'The SCA kid is compared with the registered one ignoring letter case.'),
  f(
    'sca-kid-any-registered',
    'SCA-03',
    "The SCA kid may be any client's registered kid; the signature is still verified with the caller's key.",
  ),
  f(
    'sca-key-by-kid',
    'SCA-02',
    "The SCA key is the one registered under the header's kid by whichever client; the iss is still the caller's.",
  ),
  f('sca-iss-casefold', 'SCA-04', 'The SCA iss is compared with the registered one ignoring letter case.'),
  f('sca-typ-jose', 'SCA-14', 'The SCA header typ JOSE (RFC 7515) is accepted beside JWT.'),
  f(
    'sca-hd-over-trimmed-body',
    'SCA-09',
    'The SCA hd is compared with the SHA-256 of the body with its leading and trailing whitespace trimmed.',
  ),
  f('sca-ignores-kid', 'SCA-03', 'The SCA header kid is not checked.'),
  f('sca-ignores-iss', 'SCA-04', 'The SCA iss is not checked.'),
  f('sca-ignores-exp', 'SCA-05', 'The SCA exp is neither required nor checked.'),
  f(
    'sca-ages-by-iat-not-exp',
    'SCA-05',
    'An SCA JWT issued over five minutes ago (by its iat) is refused; exp must be a NumericDate but is never compared with the time.',
  ),
  f('sca-iat-optional', 'SCA-06', 'The SCA iat is not required.'),
  f(
    'sca-iat-presence-only',
    'SCA-06',
    'The SCA iat must be there, but any value is taken: a string that is no NumericDate too.',
  ),
  f('sca-jti-optional', 'SCA-07', 'The SCA jti is not required.'),
  f('sca-ignores-alg-claim', 'SCA-08', 'The SCA payload claim alg is not checked.'),
  f(
    'sca-hd-over-reserialised-json',
    'SCA-09',
    'hd is compared with the hash of JSON.stringify(JSON.parse(body)), not the raw bytes.',
  ),
  f(
    'payment-stored-before-sca',
    'SCA-09',
    'A pacs.008 whose sca-token is refused (401) was booked first: the payment exists, and its msgId sent again is a repeat (200).',
  ),
  f('sca-nonce-optional', 'SCA-10', 'The SCA nonce is not required.'),
  f('sca-allows-nonce-reuse', 'SCA-11', 'A reused SCA nonce is accepted.'),
  f('sca-ignores-nbf', 'SCA-12', 'The optional SCA nbf is not checked.'),
  f('sca-nbf-number-only', 'SCA-12', 'The optional SCA nbf is read only when it is a number: a string is taken.'),
  f('sca-rejects-payment-id', 'SCA-13', 'An SCA JWT carrying payment_id is refused.'),
  f('sca-ignores-typ', 'SCA-14', 'The SCA header typ is not checked.'),
  f('sca-hd-unchecked', 'SCA-09', 'The SCA hd claim is required but never compared with the body.'),
  f('sca-hd-optional', 'SCA-09', 'An SCA JWT without hd is accepted; one that carries hd is compared with the body.'),
  f(
    'sca-verified-jti-trusted',
    'SCA-09',
    'An SCA JWT carrying the jti of one accepted before is taken without its hd compared with the body, its jti’s reuse unread: the verification is cached by jti.',
  ),
  f(
    'sca-hd-hex-taken',
    'SCA-09',
    'The SCA hd is also taken as the body’s hash written in hex, as many SDKs print a digest.',
  ),
  f(
    'sca-hd-ignore-case',
    'SCA-09',
    'The SCA hd is compared with the Base64 of the body’s hash ignoring letter case, as one compares hex digests: the hash with its letters in the other case is taken.',
  ),
  f(
    'sca-hd-prefix-match',
    'SCA-09',
    'The SCA hd is compared with the body’s hash over as many bytes as it carries: a hash cut short (16 bytes or more) is taken.',
  ),
  // SCA JWT: RFC 8725 attacks (README "JWT attack faults")
  f(
    'sca-trusts-x5c',
    'SCA-16',
    'An SCA JWT carrying an x5c header is verified with the key of its first (leaf) certificate; the chain is not checked.',
  ),
  f(
    'sca-trusts-x5u',
    'SCA-16',
    'An SCA JWT carrying an x5u header is verified with the key of the certificate fetched from that URL (loopback URLs only).',
  ),
  f('sca-trusts-embedded-jwk', 'SCA-16', 'An SCA JWT carrying a jwk header is verified with that embedded key.'),
  f(
    'sca-trusts-jku',
    'SCA-16',
    'An SCA JWT carrying a jku header is verified with the key of the JWK Set fetched from that URL (loopback URLs only).',
  ),
  f(
    'sca-ignores-crit',
    'SCA-17',
    'An SCA JWT whose crit header names an extension the service does not understand is accepted (crit is ignored).',
  ),
  f(
    'sca-honours-b64-false',
    'SCA-17',
    'An SCA JWT with b64 false (RFC 7797) is verified over its unencoded payload, which is read as the claims.',
  ),
  f(
    'sca-alg-first-member',
    'SCA-02',
    'The SCA alg check reads the first alg member of the header text while verification uses the parsed header (last member): RS256 then none passes unsigned.',
  ),
  f(
    'sca-accepts-rsa-family-alg',
    'SCA-02',
    'An SCA JWT is verified with whatever RSA-family alg its header names (RS384, RS512, PS256, PS384, PS512).',
  ),
  f(
    'sca-accepts-psychic-signature',
    'SCA-02',
    'An ES256 SCA JWT with the all-zero signature (r = s = 0, CVE-2022-21449) is accepted.',
  ),
  // pacs.008 submission
  f('payment-answers-200', 'P8-01', 'A new payment is answered 200 instead of 201.'),
  f(
    'payment-psid-not-string',
    'P8-02',
    'data.paymentsServiceId is a number (the number also works as the id in later calls).',
  ),
  f(
    'payment-id-field-renamed',
    'P8-02',
    'The submission response names the id data.paymentsHubId instead of data.paymentsServiceId (as the production service does); later calls accept that id as usual.',
  ),
  f('payment-id-not-echoed', 'P8-03', 'data.paymentId is the paymentsServiceId instead of grpHdr.msgId.'),
  f('payment-echo-cut-30', 'P8-03', 'data.paymentId echoes the first 30 characters of grpHdr.msgId only.'),
  f('payment-status-received', 'P8-04', 'data.status is RECEIVED instead of PENDING.'),
  f(
    'payment-shar-rejected-later',
    'P8-25',
    'A payment with chrgBr SHAR is taken with 201 and rejected in its pacs.002 status (AG01). The builder draws SHAR for about half of all payments, so the pool and the flows built on them are blocked under it too.',
  ),
  f('payment-creation-time-zoned', 'P8-05', 'data.creationDateTime carries a zone (Z).'),
  f(
    'payment-accepts-any-root',
    'P8-06',
    'A body whose root element is not fitoFICstmrCdtTrf (or has extra roots) is accepted.',
  ),
  f('payment-msgid-optional', 'P8-10', 'grpHdr.msgId is not required (a missing one is generated).'),
  f('payment-credttm-unchecked', 'P8-11', 'grpHdr.creDtTm is neither required nor checked.'),
  f(
    'payment-credttm-ranges-only',
    'P8-11',
    'grpHdr.creDtTm is checked field by field (month 1-12, day 1-31, hour 0-23), not against the calendar: 30 February is taken.',
  ),
  f('payment-nboftxs-unchecked', 'P8-12', 'grpHdr.nbOfTxs is neither required nor checked.'),
  f('payment-ttl-any-ccy', 'P8-13', 'grpHdr.ttlIntrBkSttlmAmt.ccy is not checked.'),
  f('payment-ttl-non-positive', 'P8-14', 'grpHdr.ttlIntrBkSttlmAmt.value may be zero or negative.'),
  f('payment-ttl-sum-unchecked', 'P8-15', 'grpHdr.ttlIntrBkSttlmAmt is not compared with the sum of the transactions.'),
  f(
    'payment-ttl-whole-pounds',
    'P8-15',
    'grpHdr.ttlIntrBkSttlmAmt is compared with the sum of the transactions in whole pounds only.',
  ),
  f('payment-sttlmmtd-unchecked', 'P8-16', 'grpHdr.sttlmInf.sttlmMtd is neither required nor checked.'),
  f(
    'payment-identical-transactions-collapsed',
    'P8-17',
    'A transaction written out twice, the same each time, is read as one: the message of two is taken.',
  ),
  f('payment-accepts-several-transactions', 'P8-17', 'cdtTrfTxInf may hold several transactions (the first is used).'),
  f('payment-e2e-optional', 'P8-18', 'pmtId.endToEndId is not required.'),
  f(
    'payment-blank-ids-taken',
    'P8-18',
    'An empty endToEndId or txId ("") counts as given: ISO 20022’s Max35Text has a length of 1 at least.',
  ),
  f('payment-txid-optional', 'P8-19', 'pmtId.txId is not required.'),
  f(
    'payment-uetr-contains-uuid',
    'P8-20',
    'The uetr is searched for a UUID instead of matched whole: a UUID with characters before and after it is taken.',
  ),
  f(
    'payment-ustrd-first-line-only',
    'P8-31',
    'Only the first line of rmtInf.ustrd is checked to be a string: a number as its second line is taken.',
  ),
  f(
    'payment-ttl-float32',
    'P8-15',
    'ttlIntrBkSttlmAmt and the transaction’s amount are compared as single-precision floats: near a million pounds, a penny’s difference is not seen.',
  ),
  f(
    'payment-ttl-compared-as-written',
    'P8-15',
    'ttlIntrBkSttlmAmt and the transaction’s amount are compared as the body spells them: a total written 10.50 beside an amount written 10.5 is refused.',
  ),
  f('payment-uetr-unchecked', 'P8-20', 'pmtId.uetr is not checked for UUID format.'),
  f('payment-svclvl-unchecked', 'P8-21', 'pmtTpInf.svcLvl[].prtry is not checked.'),
  f('payment-svclvl-first-only', 'P8-21', 'Only the first pmtTpInf.svcLvl entry’s prtry is checked.'),
  f('payment-amount-optional', 'P8-22', 'intrBkSttlmAmt is not required.'),
  f('accepts-eur', 'P8-23', 'intrBkSttlmAmt.ccy is not checked (EUR accepted).'),
  f('payment-accepts-gbx', 'P8-23', 'intrBkSttlmAmt.ccy GBX (pence sterling) is taken for GBP.'),
  f(
    'payment-negative-amount-as-positive',
    'P8-24',
    'A negative intrBkSttlmAmt.value is read as its size and paid; zero is still refused.',
  ),
  f(
    'payment-ccy-first-client-only',
    'P8-23',
    'intrBkSttlmAmt.ccy is checked for the first client registered with this fault only: every later client pays in any currency (a legacy client profile).',
  ),
  f(
    'payment-chrgbr-first-client-only',
    'P8-25',
    'Only the first client registered with this fault has chrgBr held to SLEV or SHAR; every later client’s chrgBr passes unchecked (DEBT, CRED).',
  ),
  f('payment-accepts-zero-amount', 'P8-24', 'intrBkSttlmAmt.value may be zero or negative.'),
  f('payment-chrgbr-unchecked', 'P8-25', 'chrgBr is neither required nor checked.'),
  f('payment-debtor-parties-optional', 'P8-26', 'dbtr, dbtrAcct and dbtrAgt are not required.'),
  f('payment-creditor-parties-optional', 'P8-27', 'cdtr, cdtrAcct and cdtrAgt are not required.'),
  f(
    'payment-party-shapes-unchecked',
    'P8-28',
    'Party structures are only checked to be objects; their fields are not checked.',
  ),
  f(
    'payment-party-name-type-unchecked',
    'P8-28',
    'A party’s nm is not checked to be a string: a number or an object stands as the debtor’s or creditor’s name.',
  ),
  f('payment-rejects-rmtinf', 'P8-29', 'A payment carrying rmtInf is refused.'),
  f(
    'payment-rmtinf-requires-ustrd',
    'P8-29',
    'A payment whose rmtInf has no ustrd is refused (strd alone is not enough).',
  ),
  f(
    'payment-rmtinf-shape-unchecked',
    'P8-31',
    'rmtInf is only checked to be an object; ustrd/strd shapes are not checked.',
  ),
  f('payment-strd-unchecked', 'P8-31', 'rmtInf.ustrd is checked; rmtInf.strd is not.'),
  f(
    'payment-no-beneficiary',
    'INC-02',
    "A payment is booked without its beneficiary's institution: it never reads it as incoming.",
  ),
  // Idempotency
  h(
    'id-reused-after-final',
    'P8-33',
    'Once per client, a new payment is given the paymentsServiceId of one of the client’s payments that is final and was created 1 s ago (REF_FAULT_LATER_MS when set); the id then names the new payment.',
    // P8-33's own test pays twice at once: the submissions' tests pay one after the other.
    ['P8-01'],
  ),
  f('idempotent-repeat-201', 'IDEM-01', 'A repeated msgId is answered 201 (with the original body).'),
  f(
    'idempotency-keyed-with-credttm',
    'IDEM-02',
    'A payment is found again by its msgId and grpHdr.creDtTm: a used msgId with another creation time pays again.',
  ),
  f(
    'repeat-before-authentication',
    'AT-01',
    'A repeated msgId is answered 200 from the idempotency record before the access token and the sca-token are checked: a repeat with neither gets the original.',
  ),
  f(
    'repeat-before-client-id-check',
    'AT-03',
    'A repeated msgId with a valid access token is answered 200 from the idempotency record before X-Client-Id is checked: a repeat without it, or naming no registered client, gets the original.',
  ),
  f(
    'idempotency-creates-second-payment',
    'IDEM-02',
    'A repeat answers 200 with the original body but silently creates and settles a second payment.',
  ),
  f(
    'idempotency-forgets-cancelled',
    'IDEM-01',
    'A repeat of the msgId of a payment whose cancellation was confirmed is taken as a new payment: 201, a new id, and it settles.',
  ),
  f(
    'idempotency-forgets-returned',
    'IDEM-01',
    'A repeat of the msgId of a payment its beneficiary returned is taken as a new payment: 201, a new id, and it settles.',
  ),
  f(
    'idempotency-forgets-rejected',
    'IDEM-01',
    'A repeat of the msgId of a payment rejected at settlement is taken as a new payment: 201, a new id.',
  ),
  f(
    'idempotency-repeat-overwrites-message',
    'INC-02',
    'A repeat’s body is stored over the payment’s (an upsert on the msgId): the beneficiary’s incoming view shows the repeat’s amount.',
  ),
  f(
    'idempotency-repeat-overwrites-ids',
    'STS-04',
    'A repeat of a used msgId answered 200 stores its endToEndId over the payment’s: pacs.002 then echoes the repeat’s.',
  ),
  f(
    'idempotency-forgets-delivered',
    'IDEM-01',
    'A repeat of the msgId of a payment its beneficiary has read (GET pacs008) is taken as a new payment: 201, a new id.',
  ),
  f(
    'idempotency-second-payment-after-settlement',
    'IDEM-02',
    'A repeat of the msgId of a payment that has already settled answers 200 with the original body but silently creates, settles and notifies a second payment (repeats before settlement are handled correctly).',
  ),
  f(
    'idempotency-repeat-names-new-payment',
    'IDEM-02',
    'A repeat answers 200, but books a second payment and names it (a new paymentsServiceId) in the 200 body; pacs.002 serves both.',
  ),
  h(
    'late-repeat-new-payment',
    'IDEM-02',
    'A msgId repeated 30 s (REF_FAULT_LATER_MS when set) after its first submission is processed as a new payment: 201 naming a new paymentsServiceId, instead of the first payment’s 200.',
  ),
  f(
    'idempotency-per-path-version',
    'IDEM-02',
    'A msgId paid on one path version (v10) and sent again on the other (v08) is paid again: each version keeps its own msgIds.',
  ),
  f(
    'idempotency-race',
    'IDEM-03',
    'The seen-check and the insert are separated by an await, so concurrent duplicates each create a payment.',
  ),
  // Status
  f('status-answers-203', 'STS-01', 'The status report is answered 203 instead of 200.'),
  f(
    'settlement-never',
    'STS-18',
    'The client’s batch is never sent: every payment it submits reads pending for as long as anyone waits.',
  ),
  f('refund-reopens-payment', 'STS-10', 'A settled payment reads pending again for 2 s after a refund of it arrives.'),
  f(
    'refund-report-acceptance-date-only',
    'STS-01',
    'A refund’s status report gives accptncDtTm as a date, not a date-time.',
  ),
  f(
    'status-v08-names-pacs002',
    'STS-06',
    'The status report of a payment made on pacs008/v08 names pacs.002.001.10 as its original message.',
  ),
  f('status-no-grphdr-msgid', 'STS-02', 'grpHdr.msgId is missing from the status report.'),
  f(
    'status-beneficiary-swaps-ids',
    'STS-04',
    "The beneficiary's institution is served a payment's status (the spec neither grants nor denies it), with orgnlEndToEndId and orgnlTxId swapped.",
  ),
  f(
    'status-txid-after-money-back',
    'STS-05',
    "Once part of a payment was refunded, or the payment returned, its status report's orgnlTxId is no longer the payment's txId.",
  ),
  f(
    'status-stale-to-beneficiary',
    'STS-08',
    'GET pacs002 serves the beneficiary’s institution the status of a payment made to it, always as the interim code: its payer reads it final.',
  ),
  f('status-wrong-orgnl-msgid', 'STS-03', 'orgnlGrpInf.orgnlMsgId is not the submission msgId.'),
  f(
    'refund-report-names-payment',
    'STS-03',
    'A refund’s pacs.002 gives as orgnlMsgId the msgId of the refunded payment, not the pacs.007’s own.',
  ),
  f(
    'return-report-names-payment',
    'STS-03',
    'A return’s pacs.002 gives as orgnlMsgId the msgId of the returned payment, not the pacs.004’s own.',
  ),
  f(
    'back-report-names-pacs008',
    'STS-06',
    'The pacs.002 of a return or a refund names pacs.008.001.08 as orgnlMsgNmId, not the pacs.004 or pacs.007 it reports on.',
  ),
  f(
    'status-acceptance-in-future',
    'STS-17',
    'accptncDtTm is an hour after the acceptance, so after the report’s own creDtTm (a time zone applied twice).',
  ),
  f('status-wrong-orgnl-e2e', 'STS-04', 'orgnlEndToEndId is not the submission endToEndId.'),
  f('status-wrong-orgnl-txid', 'STS-05', 'orgnlTxId is not the submission txId.'),
  f('status-no-orgnl-msgnmid', 'STS-06', 'orgnlGrpInf.orgnlMsgNmId is missing.'),
  f(
    'status-final-wrong-orgnl-txid',
    'STS-05',
    'Once the payment is final, the report names another orgnlTxId (the final report built elsewhere); the report of a pending payment echoes it.',
  ),
  f(
    'status-non-iso-interim',
    'STS-07',
    'The interim txSts is PENDING (not an ISO code); also visible under STS-14 (assumption).',
  ),
  // Not STS-08: ACSP is an interim code, so a report that never leaves it reads as a settlement still
  // under way, which no finite run of status reads can tell from a slow one (§2.3 bounds no wait).
  f(
    'status-accepted-as-acsp',
    'STS-18',
    'An accepted payment is reported as ACSP (settlement in process) on every read, never ACCC.',
  ),
  f(
    'status-reason-first-read-only',
    'STS-09',
    'A rejection carries its reason (stsRsnInf) on the first report of it only; later reads show RJCT alone.',
  ),
  f(
    'status-created-an-hour-ahead',
    'STS-02',
    'A report’s grpHdr.creDtTm is an hour ahead (a UTC+1 wall clock labelled Z): later than the answer that carries it.',
  ),
  f(
    'status-v10-first-answer',
    'STS-08',
    'GET pacs002/v10 serves, per client and id, the first report it built: a payment read there while pending reads pending for ever.',
  ),
  f(
    'status-cancelled-reason-text',
    'STS-01',
    'A cancelled payment’s report carries a reason whose addtlInf is one string, not §2.4’s array of strings.',
  ),
  f('status-reject-without-reason', 'STS-09', 'A rejected payment has no stsRsnInf.'),
  f('status-regresses', 'STS-10', 'A settled payment reads as interim again on later reads.'),
  f('rejection-reads-accepted', 'STS-10', 'A rejected payment reads as accepted on later reads.'),
  // Faults only the run's history sees: each acts some time after what it breaks, so no single test's
  // requests reveal it (the delay is the fault's own, or REF_FAULT_LATER_MS for every one of them).
  h(
    'token-dies-before-expires-in',
    'AT-05',
    'An access token is refused a second after it was issued, while its expires_in tells the configured lifetime: a client that renews on the 401 goes on, and only the history sees the early refusals.',
    // Status polls reuse one token for seconds.
    ['STS-01'],
  ),
  h(
    'status-reverts-later',
    'STS-10',
    'A transfer whose final status a read served 3 s ago (REF_FAULT_LATER_MS when set) reads as interim again: a final status, then an earlier one, a few seconds later.',
  ),
  h(
    'report-renamed-later',
    'STS-03',
    'A transfer whose final status a read served 3 s ago (REF_FAULT_LATER_MS when set) is reported on under another orgnlMsgId: the same report, a few seconds later, names a request nobody sent.',
  ),
  f('status-requires-sca', 'STS-11', 'The status query requires an sca-token header.'),
  f('status-unknown-id-200', 'STS-12', 'An unknown id gets 200 with an invented status report.'),
  f('status-cross-client-readable', 'STS-13', 'Any client can read any payment’s status.'),
  f(
    'back-status-readable-by-any-client',
    'STS-13',
    'Any client can read the status of any return or refund (a payment’s status stays its payer’s).',
  ),
  // Versions
  f('pacs008-v08-missing', 'VER-01', 'POST pacs008/v08 answers 404.'),
  f(
    'pacs008-v08-stores-nothing',
    'VER-01',
    'POST pacs008/v08 answers 201 with a fresh paymentsServiceId but stores nothing: the id reads as unknown.',
  ),
  f('pacs002-v10-missing', 'VER-02', 'GET pacs002/v10 answers 404.'),
  // Robustness
  f('robustness-proto-500', 'ROB-01', 'A body with a __proto__ key crashes the handler (500).'),
  f('malformed-json-500', 'ROB-01', 'A body that is not valid JSON crashes the handler (500) instead of a refusal.'),
  f(
    'deep-nesting-500',
    'ROB-03',
    'A body nested deeper than 64 levels overflows the handler (500), whatever the dialect.',
  ),
  f(
    'extra-member-alters-payment',
    'ROB-03',
    'A pacs.008 carrying a member the spec does not define is accepted and booked with another txId than the one sent.',
  ),
  // Incoming
  f('notification-not-sent', 'INC-01', 'No notification is sent for an incoming payment.'),
  f('incoming-omits-debtor', 'INC-02', 'GET pacs008/v08 omits dbtr (the sender) from the incoming payment.'),
  f('incoming-gone-after-refund', 'INC-02', 'GET pacs008/v08 answers 404 for a payment once part of it was refunded.'),
  f(
    'incoming-masks-large-sender',
    'INC-02',
    'GET pacs008/v08 masks the sender (dbtr.nm) of an incoming payment of more than 1,000.00 when its beneficiary reads it.',
  ),
  f(
    'incoming-serves-first-read',
    'INC-02',
    'GET pacs008/v08 keeps the first incoming payment a beneficiary read (a cache keyed by reader, not by id) and serves it for every later id of its own.',
  ),
  f(
    'incoming-readable-by-any-client',
    'INC-03',
    'GET pacs008/v08 serves an incoming payment to any client, not only its beneficiary: an institution with no part in the payment reads it.',
  ),
  f(
    'incoming-readable-by-bank',
    'INC-03',
    'GET pacs008/v08 serves an incoming payment to every client whose sort code begins with the same two digits as its creditor agent’s (read as one bank), not only to its beneficiary.',
  ),
  f(
    'incoming-readable-by-payer',
    'INC-07',
    'GET pacs008/v08 serves a payment to its payer whatever the dialect’s payerIncomingRead.',
  ),
  // Cancellation
  f(
    'cancel-accepts-foreign-payment',
    'CXL-01',
    'A cancellation of another client’s or an unknown payment is accepted.',
  ),
  f(
    'cancel-foreign-pending-cancels',
    'CXL-01',
    'A cancellation of another client’s payment is accepted, its camt.029 reads PDCR (pending) on every read, and the payment is cancelled all the same.',
  ),
  f(
    'cancel-refuses-beneficiary-only',
    'CXL-01',
    'A cancellation of another client’s payment is refused only when it comes from that payment’s beneficiary: any other institution’s is taken, confirmed, and the payment cancelled.',
  ),
  f(
    'cancel-before-batch-still-settles',
    'CXL-02',
    'A cancellation before the batch is confirmed (CNCL) but the payment still settles.',
  ),
  f(
    'cancel-confirmed-stays-pending',
    'CXL-02',
    'A cancellation before the batch is confirmed (CNCL), and the payment is left out of its batch, but its status reads pending for ever: the money is never returned to the payer.',
  ),
  f(
    'cancel-confirmed-yet-settles',
    'CXL-02',
    'A cancellation before the batch is confirmed (CNCL) and the payment reads cancelled (CANC), but it stays in its batch and settles accepted all the same.',
  ),
  f(
    'cancel-rejected-yet-cancels',
    'CXL-03',
    'A cancellation before the batch is reported rejected (camt.029 RJCR), yet the payment is cancelled (CANC).',
  ),
  f(
    'cancel-after-batch-succeeds',
    'CXL-03',
    'A cancellation after the batch was sent is confirmed and the payment cancelled.',
  ),
  f(
    'cancel-v08-still-settles',
    'CXL-02',
    'A payment submitted on pacs008/v08 and cancelled before its batch is confirmed cancelled (CNCL), yet stays in the batch and settles.',
  ),
  f(
    'cancel-prtry-still-settles',
    'CXL-02',
    'A cancellation before the batch whose reason is given as prtry (the assigner’s own text, not a code) is confirmed (CNCL), yet the payment stays in its batch and settles.',
  ),
  f(
    'cancel-returned-confirmed',
    'CXL-03',
    'The cancellation of a settled payment its beneficiary already returned is confirmed (camt.029 CNCL); nothing is undone.',
  ),
  f(
    'cancel-again-after-batch-succeeds',
    'CXL-03',
    'A cancellation after the batch was sent is rejected, but a second one (an assgnmt.id of its own) is confirmed and the payment cancelled.',
  ),
  f(
    'refund-of-cancelled-accepted',
    'CXL-02',
    'A refund of part of a payment whose cancellation was confirmed is accepted and settles: the money the payer got back goes back once more.',
  ),
  f(
    'cancel-rejected-acted-on-later',
    'CXL-03',
    'A cancellation of a settled payment is rejected, and the payment is cancelled all the same 200 ms later.',
  ),
  f(
    'cancel-refunded-confirmed',
    'CXL-03',
    'The cancellation of a settled payment its beneficiary refunded part of is confirmed, and the payment cancelled.',
  ),
  f(
    'cancel-grace-after-settlement',
    'CXL-03',
    'A cancellation that comes less than 2 s after its payment settled is confirmed, and the payment cancelled: a grace period §1 does not have.',
  ),
  f(
    'cancel-backdated-confirmed',
    'CXL-03',
    'A cancellation of a settled payment is confirmed and the payment cancelled when the camt.056’s assgnmt.creDtTm is earlier than the payment’s settlement: the service judges it by the time the message gives itself, not by its batch.',
  ),
  f(
    'cancel-finds-by-msgid',
    'XCL-01',
    'A cancellation cancels the newest payment with its orgnlMsgId and orgnlTxId, whichever client made it: another client’s payment with the same ids is cancelled in place of the canceller’s own.',
  ),
  f(
    'cancel-late-accepted-per-transaction',
    'CXL-03',
    'A cancellation after the batch was sent reads rejected in sts.conf (RJCR) but accepted in its transaction’s txCxlSts (ACCR).',
  ),
  f(
    'cancel-settled-pending-then-confirmed',
    'CXL-03',
    'The cancellation of a settled payment reads PDCR (pending) on its first camt.029 read, then CNCL (confirmed).',
  ),
  f(
    'cancel-settled-stays-pending',
    'CXL-03',
    'The cancellation of a settled payment is never decided: its camt.029 reads PDCR (pending) on every read, never rejected.',
  ),
  f('camt029-not-served', 'CXL-04', 'GET camt029 answers 404.'),
  f(
    'camt029-rejection-never-served',
    'CXL-04',
    'GET camt029 of a rejected cancellation answers 202 with no body on every read, as if its camt.029 were still to come.',
  ),
  f(
    'camt029-by-payment-id-readable-by-any',
    'CXL-07',
    'GET camt029 by the cancelled payment’s own id serves the cancellation to any client; by the cancellation’s id, to its requester only.',
  ),
  f(
    'camt029-readable-by-any-client',
    'CXL-07',
    'GET camt029 serves a cancellation to any client, not only the one that requested it.',
  ),
  // ISO 20022: the answers are valid under their version's XSD (the suite's assumption ISO-01)
  f(
    'iso-answer-id-over-35',
    'ISO-01',
    'The pacs.002 grpHdr.msgId is a UUID with its hyphens: 36 characters where Max35Text allows 35.',
  ),
  f(
    'iso-answer-code-outside-list',
    'ISO-01',
    'The camt.029 txCxlSts is a status of another list (CNCL for an accepted cancellation, RJCT for a rejected one), outside CancellationIndividualStatus1Code (RJCR, ACCR, PDCR).',
  ),
  f(
    'iso-answer-required-missing',
    'ISO-01',
    'The camt.029 assignment has no assigner and no assignee, both required by CaseAssignment5.',
  ),
  // Return
  f(
    'return-answers-500',
    'RTR-01',
    'A valid return is stored but answered 500: the client cannot tell it was accepted.',
  ),
  f(
    'return-answers-202',
    'RTR-37',
    'A valid return is answered with the other of 201 and 202 than the dialect’s acceptanceStatus (202 in the default dialect).',
  ),
  f('return-accepts-non-eur', 'RTR-02', 'Return amounts are accepted in any currency.'),
  f('return-accepts-non-positive', 'RTR-03', 'Return amounts may be zero or negative.'),
  f('return-msgid-optional', 'RTR-04', 'pmtRtr.grpHdr.msgId is not required.'),
  f('return-repeat-not-idempotent', 'RTR-05', 'A repeated return msgId is processed as a new return.'),
  f(
    'return-reason-rejected-later',
    'RTR-22',
    'A return whose reason is AM05 (an EBA code §2.5 allows) is answered 2xx and then rejected in pacs.002.',
  ),
  f('return-credttm-optional', 'RTR-06', 'pmtRtr.grpHdr.creDtTm is not required.'),
  f('return-nboftxs-unchecked', 'RTR-07', 'pmtRtr.grpHdr.nbOfTxs is neither required nor checked.'),
  f('return-sttlmdt-unchecked', 'RTR-08', 'pmtRtr.grpHdr.intrBkSttlmDt is neither required nor checked.'),
  f('return-sttlmmtd-optional', 'RTR-09', 'pmtRtr.grpHdr.sttlmInf.sttlmMtd is not required.'),
  f('return-bic-unchecked', 'RTR-10', 'BICs of a return are not checked for format.'),
  f(
    'return-idempotency-forgets-final',
    'RTR-05',
    'A return’s msgId is forgotten once the return is final: the same return sent again is booked as a new one.',
  ),
  f(
    'return-idempotency-keyed-with-body',
    'RTR-05',
    'A return’s idempotency key is its msgId with its body: the msgId sent again with another creDtTm is booked as a new return.',
  ),
  f(
    'return-bic-case-insensitive',
    'RTR-10',
    'A return’s BICs are checked in either case: a BIC in lower case (abcdgb2l), which ISO 20022’s BIC patterns refuse, is taken.',
  ),
  f(
    'return-rsn-both-taken',
    'RTR-22',
    'A return reason holding both cd and prtry is taken (its cd read): ISO 20022’s ReturnReason5Choice holds one of the two.',
  ),
  f(
    'return-tx-dates-unchecked',
    'RTR-42',
    'Only the group header’s interbank settlement date is checked: txInf.intrBkSttlmDt and orgnlTxRef.intrBkSttlmDt take any string.',
  ),
  f(
    'return-sttlmdt-ranges-only',
    'RTR-08',
    'grpHdr.intrBkSttlmDt is checked field by field, not against the calendar: 30 February is taken.',
  ),
  f(
    'return-msgnmid-any-variant',
    'RTR-13',
    'orgnlMsgNmId is taken with any variant number before an allowed version (pacs.008.002.08).',
  ),
  f(
    'return-iban-print-format',
    'RTR-25',
    'A return’s IBANs are checked with their spaces taken out: an IBAN in print format, which ISO 20022’s IBAN2007Identifier refuses, is taken.',
  ),
  f(
    'return-dbtr-ctry-case-insensitive',
    'RTR-32',
    'The debtor’s pstlAdr.ctry is read in either case: gb is taken for GB (the creditor’s is checked).',
  ),
  f(
    'return-bic-length-only',
    'RTR-10',
    'BICs of a return are checked for their length and characters only: digits where the country code stands pass.',
  ),
  f('return-rtrid-optional', 'RTR-11', 'txInf.rtrId is not required.'),
  f(
    'return-rtrid-reuse-accepted',
    'RTR-40',
    'A new return (its own msgId) reusing the rtrId of an earlier return is processed like any other.',
  ),
  f('return-orgnl-msgid-optional', 'RTR-12', 'txInf.orgnlGrpInf.orgnlMsgId is not required.'),
  f('return-accepts-any-msgnmid', 'RTR-13', 'orgnlMsgNmId is neither required nor checked.'),
  f(
    'return-msgnmid-prefix-only',
    'RTR-13',
    'orgnlMsgNmId must begin with pacs.008; the version after it is not checked.',
  ),
  f('return-orgnl-e2e-optional', 'RTR-14', 'txInf.orgnlEndToEndId is not required.'),
  f('return-orgnl-txid-optional', 'RTR-15', 'txInf.orgnlTxId is not required.'),
  f('return-orgnl-amount-optional', 'RTR-16', 'txInf.orgnlIntrBkSttlmAmt is not required.'),
  f('return-rtrd-amount-optional', 'RTR-17', 'txInf.rtrdIntrBkSttlmAmt is not required.'),
  f('return-accepts-rtrdinstdamt-always', 'RTR-18', 'rtrdInstdAmt is accepted without a cancellation request.'),
  f('return-accepts-shar', 'RTR-19', 'txInf.chrgBr is neither required nor checked (SHAR accepted).'),
  f('return-first-reason-only', 'RTR-22', 'Only the first rtrRsnInf is validated; the others are taken as they are.'),
  f('return-orgtr-nm-optional', 'RTR-20', 'rtrRsnInf[].orgtr.nm is not required.'),
  f('return-orgtr-first-only', 'RTR-20', 'The originator (orgtr) is required of the first rtrRsnInf only.'),
  f('return-orgtr-bic-optional', 'RTR-21', 'rtrRsnInf[].orgtr.id.orgId.anyBIC is not required.'),
  f('return-accepts-non-eba-code', 'RTR-22', 'rsn.cd is not checked against the EBA list (rsn still required).'),
  f(
    'return-accepts-md06',
    'RTR-22',
    'The list of reason codes holds MD06 too (an EBA code of direct debits that §2.5 does not list).',
  ),
  f('return-addtlinf-unchecked', 'RTR-23', 'addtlInf is not checked against the reason.'),
  f('return-addtlinf-first-only', 'RTR-23', 'addtlInf is checked against the first reason only.'),
  f('return-dbtr-nm-optional', 'RTR-24', 'orgnlTxRef.dbtr.pty.nm is not required.'),
  f('return-dbtr-iban-unchecked', 'RTR-25', 'orgnlTxRef.dbtrAcct.id.iban is neither required nor checked.'),
  f('return-dbtragt-bic-optional', 'RTR-26', 'orgnlTxRef.dbtrAgt.finInstnId.bicfi is not required.'),
  f('return-cdtragt-bic-optional', 'RTR-27', 'orgnlTxRef.cdtrAgt.finInstnId.bicfi is not required.'),
  f('return-cdtr-nm-optional', 'RTR-28', 'The creditor name is not required.'),
  f('return-cdtr-iban-unchecked', 'RTR-29', 'orgnlTxRef.cdtrAcct.id.iban is neither required nor checked.'),
  f('return-requires-ttl-amount', 'RTR-30', 'The optional grpHdr.ttlRtrdIntrBkSttlmAmt is required.'),
  f('return-orgnl-sttlm-unchecked', 'RTR-31', 'orgnlTxRef sttlmMtd and svcLvl.prtry are not checked.'),
  f('return-svclvl-fp', 'RTR-31', 'orgnlTxRef.pmtTpInf.svcLvl.prtry takes FP (pacs.008’s value) besides SEPA.'),
  f('return-ctry-unchecked', 'RTR-32', 'pstlAdr.ctry is not checked against ISO 3166.'),
  f('return-partial-amount-accepted', 'RTR-33', 'rtrdIntrBkSttlmAmt need not equal the original amount.'),
  f(
    'return-amount-checked-in-message',
    'RTR-33',
    'rtrdIntrBkSttlmAmt is compared with the message’s orgnlIntrBkSttlmAmt, not with the payment held.',
  ),
  f(
    'return-remainder-after-refund',
    'RTR-33',
    'After refunds, a return of what is left of the payment is accepted as its return (not the full original amount).',
  ),
  f(
    'return-refused-still-counts',
    'RTR-01',
    'A return refused for its amount (not the original amount) still marks the payment returned: its full return after it is refused.',
  ),
  f('return-twice-accepted', 'RTR-38', 'A payment already returned can be returned again.'),
  f('return-by-any-institution', 'RTR-39', 'Any institution, not only the beneficiary’s, may return a known payment.'),
  f(
    'return-refuses-payer-only',
    'RTR-39',
    'Only the payer’s institution is refused a return; any other institution may return a known payment.',
  ),
  f(
    'return-by-later-payer',
    'RTR-39',
    'A payer that registered after the payment’s beneficiary may return its own payment (the institution check looks at the first-registered party only).',
  ),
  f('return-without-sca', 'RTR-34', 'POST pacs004 does not require or check the sca-token.'),
  f('return-status-not-served', 'RTR-35', 'pacs002 answers 404 for a return.'),
  f('return-status-not-served-v10', 'RTR-35', 'pacs002/v10 answers 404 for a return (v12 serves it).'),
  // Refund
  f(
    'refund-answers-500',
    'RFD-01',
    'A valid refund is stored but answered 500: the client cannot tell it was accepted.',
  ),
  f(
    'refund-answers-202',
    'RFD-07',
    'A valid refund is answered with the other of 201 and 202 than the dialect’s acceptanceStatus (202 in the default dialect).',
  ),
  f('refund-full-amount-accepted', 'RFD-02', 'A single refund of the full original amount is accepted.'),
  f('refund-by-any-institution', 'RFD-08', 'Any institution, not only the beneficiary’s, may refund a known payment.'),
  f(
    'refund-refuses-payer-only',
    'RFD-08',
    'Only the payer’s institution is refused a refund; any other institution may refund a known payment.',
  ),
  f(
    'refund-by-later-payer',
    'RFD-08',
    'A payer that registered after the payment’s beneficiary may refund its own payment (the institution check looks at the first-registered party only).',
  ),
  f('refund-chain-cannot-reach-full', 'RFD-03', 'Refunds must together stay below the original amount.'),
  f('refund-chain-exceeds-original', 'RFD-04', 'The total of refunds is not checked against the original.'),
  f(
    'refund-limit-from-message',
    'RFD-04',
    "A refund is limited by the orgnlIntrBkSttlmAmt its own message gives, not by the payment's amount.",
  ),
  f(
    'refund-refused-still-counts',
    'RFD-01',
    'A refund refused for its amount still counts as refunded: the rest of the payment can no longer be refunded.',
  ),
  f(
    'refund-less-in-whole-pounds',
    'RFD-01',
    'A refund is compared with the original in whole pounds: one within the original’s last pound (100.49 of 100.50) is refused as the full amount.',
  ),
  f(
    'refund-first-over-amount-accepted',
    'RFD-04',
    'A first refund above the original amount is accepted: a single refund is refused only when it equals the amount, and the total is checked only after an earlier refund.',
  ),
  f(
    'refund-accepts-negative',
    'RFD-10',
    'A refund of a negative amount is accepted (and counted against what is left to refund).',
  ),
  f('refund-status-not-served', 'RFD-05', 'pacs002 answers 404 for a refund.'),
  f('refund-status-not-served-v10', 'RFD-05', 'pacs002/v10 answers 404 for a refund (v12 serves it).'),
  f('refund-rejected-later', 'RFD-01', 'A valid refund is taken with a 2xx and rejected in its pacs.002 status.'),
  f(
    'refund-accepts-any-root',
    'RFD-09',
    'A pacs.007 under any single root is read as the refund, whatever the dialect’s refundUnknownRoot.',
  ),
  // Money: exact amounts, what goes back never exceeds the original, references per client
  f(
    'money-return-after-refund',
    'MNY-01',
    'The return check ignores accepted refunds: a full return after a refund is accepted.',
  ),
  f(
    'money-refund-after-return',
    'MNY-01',
    'The refund check ignores a return: a refund of a returned payment is accepted.',
  ),
  f(
    'money-check-then-act',
    'MNY-01',
    'An await (~50 ms) separates the return/refund check from its booking, so a concurrent return and refunds all pass the check.',
  ),
  h(
    'refund-race-overrun',
    'MNY-01',
    'A refund arriving within 50 ms of the previous refund of the same payment is booked without the check against what is left: two refunds at once can together send back more than was paid.',
  ),
  f(
    'money-float-amounts',
    'MNY-01',
    'Refund totals are kept and compared as floating-point pounds (value added as a JS number, compared with <=), so near the amount bound rounding lets refunds exceed the original.',
  ),
  f(
    'msgid-idempotency-across-clients',
    'XCL-01',
    'Idempotency is keyed on the msgId alone: another client’s payment reusing a msgId is answered 200 as the first client’s payment, and none is made.',
  ),
  f(
    'payment-refs-global',
    'XCL-01',
    'Payments are found for returns and refunds by (msgId, txId) across all clients, a later payment overwriting: another client’s payment reusing them shadows the genuine one.',
  ),
  f('amount-sub-minor-units', 'MNY-04', 'Amounts with more than 2 decimal places are accepted (rounded to cents).'),
  f('amount-unbounded', 'MNY-05', 'Amounts have no upper bound (any finite positive number is accepted).'),
] as const;

/** The operations of README "Addresses", named as the suite's profiles name them. */
export const operations = [
  'token',
  'submitPayment',
  'paymentStatus',
  'incomingPayment',
  'cancel',
  'cancellationStatus',
  'returnPayment',
  'refund',
] as const;
export type Operation = (typeof operations)[number];

const operationLabel: Readonly<Record<Operation, string>> = {
  token: 'POST /oauth/token',
  submitPayment: 'POST pacs008',
  paymentStatus: 'GET pacs002',
  incomingPayment: 'GET pacs008/{id}',
  cancel: 'POST camt056',
  cancellationStatus: 'GET camt029/{id}',
  returnPayment: 'POST pacs004',
  refund: 'POST pacs007',
};

const PAYMENTS_OPS = [
  'submitPayment',
  'paymentStatus',
  'incomingPayment',
  'cancel',
  'cancellationStatus',
  'returnPayment',
  'refund',
] as const;
const POST_OPS = ['submitPayment', 'cancel', 'returnPayment', 'refund'] as const;

const perOp = <B extends string, O extends Operation>(base: B, rule: string, ops: readonly O[], what: string) =>
  ops.map((op) => ({
    name: `${base}@${op}` as `${B}@${O}`,
    rule,
    description: `${what} Only on ${op} (${operationLabel[op]}).`,
  }));

/** base × operations: each row's base is also a global fault above. */
export const perOperationFaults = [
  ...perOp(
    'bearer-optional',
    'AT-01',
    PAYMENTS_OPS,
    'A request without Authorization is served as the X-Client-Id client (the route skips the bearer check).',
  ),
  ...perOp(
    'bearer-accepts-unknown',
    'AT-02',
    PAYMENTS_OPS,
    'An unknown (malformed or forged) bearer token is served as the X-Client-Id client.',
  ),
  ...perOp(
    'bearer-signature-unchecked',
    'AT-02',
    PAYMENTS_OPS,
    'A JWT access token is decoded, not verified: one whose signature was altered is taken as its sub’s.',
  ),
  ...perOp(
    'bearer-never-expires',
    'AT-05',
    ['submitPayment', 'paymentStatus', 'cancel', 'cancellationStatus', 'returnPayment', 'refund', 'incomingPayment'],
    'An access token is accepted after expiry.',
  ),
  ...perOp('client-id-header-optional', 'AT-03', PAYMENTS_OPS, 'A missing X-Client-Id defaults to the token’s client.'),
  ...perOp('client-id-mismatch-ignored', 'AT-04', PAYMENTS_OPS, 'X-Client-Id naming another client is not refused.'),
  ...perOp(
    'answers-non-json',
    'AT-06',
    operations,
    'The success body is sent as Content-Type text/plain (the JSON text pre-serialised).',
  ),
  ...perOp(
    'content-type-unchecked',
    'AT-07',
    ['submitPayment', 'returnPayment'],
    'The body is parsed as JSON whatever its Content-Type.',
  ),
  ...perOp(
    'content-type-absent-taken',
    'AT-07',
    ['submitPayment', 'returnPayment'],
    'A body with no Content-Type is parsed as JSON (one declared otherwise is still refused).',
  ),
  // Comparisons a route may write for itself: each submitting operation its own.
  ...perOp(
    'sca-kid-casefold',
    'SCA-03',
    POST_OPS,
    'The SCA kid is compared with the registered one ignoring letter case.',
  ),
  ...perOp(
    'sca-iss-casefold',
    'SCA-04',
    POST_OPS,
    'The SCA iss is compared with the registered one ignoring letter case.',
  ),
  ...perOp(
    'sca-hd-ignore-case',
    'SCA-09',
    POST_OPS,
    'The SCA hd is compared with the body’s hash ignoring letter case.',
  ),
  ...perOp('sca-hd-hex-taken', 'SCA-09', POST_OPS, 'The SCA hd is also taken as the body’s hash written in hex.'),
  ...perOp('sca-optional', 'SCA-01', POST_OPS, 'A request without sca-token is accepted without SCA.'),
  ...perOp('sca-skips-signature', 'SCA-02', POST_OPS, 'The SCA signature is not verified (alg RS256 still required).'),
  ...perOp(
    'sca-key-of-any-client',
    'SCA-02',
    POST_OPS,
    "The SCA key is the one registered with the JWT's kid by any client: another client's whole SCA JWT is accepted.",
  ),
  ...perOp(
    'sca-accepts-hs256-public-key',
    'SCA-02',
    POST_OPS,
    "An SCA JWT with header alg HS256 is verified by HMAC keyed with the client's registered public key text.",
  ),
  ...perOp('sca-hd-unchecked', 'SCA-09', POST_OPS, 'The SCA hd claim is required but never compared with the body.'),
  ...perOp(
    'sca-hd-over-reserialised-json',
    'SCA-09',
    POST_OPS,
    'The SCA hd is compared with the SHA-256 of the body parsed and written again compactly.',
  ),
  ...perOp(
    'sca-hd-over-trimmed-body',
    'SCA-09',
    POST_OPS,
    'The SCA hd is compared with the SHA-256 of the body with its leading and trailing whitespace trimmed.',
  ),
  ...perOp(
    'sca-kid-any-registered',
    'SCA-03',
    POST_OPS,
    "The SCA kid may be any client's registered kid; the signature is still verified with the caller's key.",
  ),
  ...perOp(
    'sca-key-by-kid',
    'SCA-02',
    POST_OPS,
    "The SCA key is the one registered under the header's kid by whichever client; the iss is still the caller's.",
  ),
  ...perOp(
    'sca-hd-optional',
    'SCA-09',
    POST_OPS,
    'An SCA JWT without hd is accepted; one that carries hd is compared.',
  ),
  ...perOp('sca-allows-nonce-reuse', 'SCA-11', POST_OPS, 'A reused SCA nonce is accepted.'),
  ...perOp('malformed-json-500', 'ROB-01', POST_OPS, 'A body that is not valid JSON crashes the handler (500).'),
  ...perOp('deep-nesting-500', 'ROB-03', POST_OPS, 'A body nested deeper than 64 levels overflows the handler (500).'),
  ...perOp(
    'repeat-before-authentication',
    'AT-01',
    POST_OPS,
    'A repeat of a used idempotency key (msgId; a camt.056’s assgnmt.id) is answered 200 from its record before the access token and the sca-token are checked.',
  ),
];

const perVersion = <B extends string, O extends Operation, V extends string>(
  base: B,
  rule: string,
  op: O,
  version: V,
  what: string,
) => ({
  name: `${base}@${op}:${version}` as `${B}@${O}:${V}`,
  rule,
  description: `${what} Only on ${operationLabel[op]} at ${version}, the flow description's path; its other path versions check it.`,
});

/** The flow description's versions of the two operations §9 gives two versions each. */
export const perVersionFaults = [
  perVersion(
    'bearer-optional',
    'AT-01',
    'submitPayment',
    'v08',
    'A request without Authorization is served as the X-Client-Id client.',
  ),
  perVersion(
    'bearer-optional',
    'AT-01',
    'paymentStatus',
    'v10',
    'A request without Authorization is served as the X-Client-Id client.',
  ),
  perVersion('sca-optional', 'SCA-01', 'submitPayment', 'v08', 'A request without sca-token is accepted without SCA.'),
  perVersion(
    'sca-hd-unchecked',
    'SCA-09',
    'submitPayment',
    'v08',
    'The SCA hd claim is required but never compared with the body.',
  ),
  perVersion(
    'sca-accepts-hs256-public-key',
    'SCA-02',
    'submitPayment',
    'v08',
    "An SCA JWT with header alg HS256 is verified by HMAC keyed with the client's registered public key text.",
  ),
  perVersion(
    'sca-hd-over-reserialised-json',
    'SCA-09',
    'submitPayment',
    'v08',
    'The SCA hd is compared with the SHA-256 of the body parsed and written again compactly.',
  ),
  perVersion(
    'sca-hd-over-trimmed-body',
    'SCA-09',
    'submitPayment',
    'v08',
    'The SCA hd is compared with the SHA-256 of the body with its leading and trailing whitespace trimmed.',
  ),
  perVersion('payment-strd-unchecked', 'P8-31', 'submitPayment', 'v08', 'rmtInf.ustrd is checked; rmtInf.strd is not.'),
  perVersion(
    'payment-no-beneficiary',
    'INC-02',
    'submitPayment',
    'v08',
    "A payment is booked without its beneficiary's institution: it never reads it as incoming.",
  ),
  perVersion('accepts-eur', 'P8-23', 'submitPayment', 'v08', 'intrBkSttlmAmt.ccy is not checked (EUR accepted).'),
  perVersion(
    'payment-negative-amount-as-positive',
    'P8-24',
    'submitPayment',
    'v08',
    'A negative intrBkSttlmAmt.value is read as its size and paid; zero is still refused.',
  ),
  perVersion('sca-rejects-payment-id', 'SCA-13', 'submitPayment', 'v08', 'An SCA JWT carrying payment_id is refused.'),
  perVersion(
    'payment-ttl-sum-unchecked',
    'P8-15',
    'submitPayment',
    'v08',
    'grpHdr.ttlIntrBkSttlmAmt is not compared with the sum of the transactions.',
  ),
  perVersion('payment-e2e-optional', 'P8-18', 'submitPayment', 'v08', 'pmtId.endToEndId is not required.'),
  perVersion(
    'malformed-json-500',
    'ROB-01',
    'submitPayment',
    'v08',
    'A body that is not valid JSON crashes the handler (500).',
  ),
  perVersion(
    'idempotent-repeat-201',
    'IDEM-01',
    'submitPayment',
    'v08',
    'A repeated msgId is answered 201 (with the original body).',
  ),
  perVersion(
    'status-regresses',
    'STS-10',
    'paymentStatus',
    'v10',
    'A settled payment reads as interim again on later reads.',
  ),
  perVersion(
    'status-cross-client-readable',
    'STS-13',
    'paymentStatus',
    'v10',
    'Any client can read any payment’s status.',
  ),
];

/** Every fault (also GET /_admin/faults): the global ones, then the per-operation and per-version ones. */
export const faultCatalogue = [...globalFaultCatalogue, ...perOperationFaults, ...perVersionFaults];

export type FaultName = (typeof faultCatalogue)[number]['name'];
export type FaultSet = ReadonlySet<FaultName>;

const names: ReadonlySet<string> = new Set(faultCatalogue.map((x) => x.name));

export function isFaultName(name: string): name is FaultName {
  return names.has(name);
}

/** Parses a comma-separated list (REF_FAULTS); unknown names are an error, so a typo never runs silently. */
export function parseFaultList(list: readonly string[]): FaultName[] {
  const out: FaultName[] = [];
  for (const raw of list) {
    const name = raw.trim();
    if (name === '') continue;
    if (!isFaultName(name)) throw new Error(`unknown fault "${name}"`);
    out.push(name);
  }
  return out;
}

/** Per fault set (sets are built once per client), the set each operation (at each path version) checks. */
const byOperation = new WeakMap<FaultSet, Map<string, FaultSet>>();

export function faultsFor(set: FaultSet, op: Operation, version?: string): FaultSet {
  let cache = byOperation.get(set);
  if (!cache) byOperation.set(set, (cache = new Map()));
  const key = version ? `${op}:${version}` : op;
  let out = cache.get(key);
  if (!out) {
    const suffixes = [`@${op}`, ...(version ? [`@${op}:${version}`] : [])];
    const bases = [...set].flatMap((name) => {
      const suffix = suffixes.find((s) => name.endsWith(s));
      return suffix ? [name.slice(0, -suffix.length) as FaultName] : [];
    });
    out = bases.length === 0 ? set : new Set<FaultName>([...set, ...bases]);
    cache.set(key, out);
  }
  return out;
}
