/**
 * The quick proof (messages/iso20022/proof.ts) may only ever be stricter than libxml2: whatever it
 * shows valid, libxml2 accepts under the same XSD. Held over every builder's message, every case
 * table's mutant, the values at each facet's edge, and thousands of random single changes to valid
 * messages. And it holds for what the suite builds as valid, or it would save nothing.
 *
 * Run: node --import tsx --test tests/unit/messages/iso20022-proof.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ISO_XSD_DIR, loadIsoSchemas, type IsoSchemas } from '../../../messages/iso20022/validate';
import { validityProof } from '../../../messages/iso20022/proof';
import { xsdModel } from '../../../messages/iso20022/xsd-model';
import type { IsoMessage } from '../../../messages/iso20022/versions';
import { buildPacs008 } from '../../../messages/pacs008';
import { buildPacs004 } from '../../../messages/pacs004';
import { buildCamt056 } from '../../../messages/camt056';
import { buildPacs007 } from '../../../messages/pacs007';
import { pacs008Cases } from '../../../cases/pacs008-cases';
import { returnCases } from '../../../cases/pacs004-cases';
import { applyEdits } from '../../../cases/field-rows';

type Sample = readonly [IsoMessage, unknown];

/** The proof of each version, over the model libxml2 reads from its XSD, as validate.ts builds it. */
async function loadProofs(): Promise<(message: IsoMessage, json: unknown) => boolean> {
  const lib = await import('libxml2-wasm');
  const proofs = new Map<IsoMessage, (json: unknown) => boolean>();
  return (message, json) => {
    let proof = proofs.get(message);
    if (!proof) {
      const xsd = lib.XmlDocument.fromBuffer(readFileSync(path.join(ISO_XSD_DIR, `${message}.xsd`)));
      proof = validityProof(xsdModel(xsd));
      proofs.set(message, proof);
    }
    return proof(json);
  };
}

/** The proof itself shows the message valid (libxml2 not asked), and libxml2 agrees. */
function proven(
  iso: IsoSchemas,
  proves: (m: IsoMessage, j: unknown) => boolean,
  message: IsoMessage,
  json: unknown,
): boolean {
  return proves(message, json) && iso.validate(message, json, { libxml2Only: true }).valid;
}

/** The proof's answer and libxml2's agree wherever the proof says valid; the message named if not. */
function assertSound(iso: IsoSchemas, [message, json]: Sample, label: string): void {
  const quick = iso.validate(message, json);
  if (!quick.valid) return;
  const strict = iso.validate(message, json, { libxml2Only: true });
  assert.ok(
    strict.valid,
    `${label}: the proof showed valid what libxml2 refuses (${strict.findings.map((f) => `${f.path}: ${f.message}`).join('; ')}): ${JSON.stringify(json)}`,
  );
}

function validMessages(seeds: number): Sample[] {
  const out: Sample[] = [];
  for (let i = 0; i < seeds; i++) {
    const payment = buildPacs008({ seed: `proof${i}`, withTotal: i % 2 === 0 });
    out.push(['pacs.008.001.10', payment], ['pacs.008.001.08', payment]);
    out.push(['camt.056.001.08', buildCamt056({ seed: `c${i}`, original: payment })]);
    out.push(['pacs.007.001.08', buildPacs007({ seed: `f${i}`, original: payment })]);
    out.push([
      'pacs.004.001.09',
      buildPacs004({ seed: `r${i}`, original: payment, withCharges: i % 3 === 0, withInstructedAmount: i % 5 === 0 }),
    ]);
  }
  return out;
}

/**
 * Answers as a target serves them (the suite builds none): a status report, with a reason whose
 * additional information holds a null entry, at both versions, and a resolution of investigation.
 */
function answerMessages(): Sample[] {
  const report = {
    fitoFIPmtStsRpt: {
      grpHdr: { msgId: '759cd67bd1194e57be0ca292f9b1d27a', creDtTm: '2026-11-29T06:25:48.222Z' },
      txInfAndSts: [
        {
          orgnlGrpInf: { orgnlMsgId: 'MSG-1', orgnlMsgNmId: 'pacs.008.001.08' },
          orgnlEndToEndId: 'E2E-1',
          orgnlTxId: 'TX-1',
          txSts: 'RJCT',
          stsRsnInf: [{ rsn: { cd: 'AC01' }, addtlInf: ['the creditor account is unknown', null] }],
          orgnlTxRef: { sttlmInf: { sttlmMtd: 'CLRG' }, pmtTpInf: { svcLvl: [{ prtry: 'FP' }] } },
        },
      ],
    },
  };
  const resolution = {
    rsltnOfInvstgtn: {
      assgnmt: {
        id: 'CXLASG-1',
        assgnr: { agt: { finInstnId: { bicfi: 'REFSGB2LXXX' } } },
        assgne: { agt: { finInstnId: { bicfi: 'PXDGRO5K' } } },
        creDtTm: '2026-11-29T06:25:51.092Z',
      },
      sts: { conf: 'CNCL' },
      cxlDtls: [
        {
          txInfAndSts: [
            {
              cxlStsId: 'f05aea951b294760805ed8be5e089639',
              orgnlGrpInf: { orgnlMsgId: 'MSG-1', orgnlMsgNmId: 'pacs.008.001.08' },
              orgnlEndToEndId: 'E2E-1',
              orgnlTxId: 'TX-1',
              txCxlSts: 'ACCR',
            },
          ],
        },
      ],
    },
  };
  return [
    ['pacs.002.001.10', report],
    ['pacs.002.001.12', report],
    ['camt.029.001.09', resolution],
  ];
}

test('the proof holds for every message the builders make as valid, and for answers, and libxml2 agrees', async () => {
  const iso = await loadIsoSchemas();
  const proves = await loadProofs();
  for (const [message, json] of [...validMessages(40), ...answerMessages()])
    assert.ok(proven(iso, proves, message, json), `${message} not proven: ${JSON.stringify(json)}`);
});

test('every case table’s mutant: what the proof shows valid, libxml2 accepts', async () => {
  const iso = await loadIsoSchemas();
  for (const c of pacs008Cases) {
    const twin = buildPacs008({ seed: `twin|${c.name}`, ...c.base });
    const mutant = applyEdits(twin, c.edits, { twin });
    assertSound(iso, ['pacs.008.001.10', mutant], `pacs.008 "${c.name}"`);
  }
  for (const c of returnCases) {
    const twin = buildPacs004({
      seed: `twin|${c.name}`,
      original: buildPacs008({ seed: `orig|${c.name}` }),
      ...(c.twin ?? {}),
    });
    assertSound(iso, ['pacs.004.001.09', applyEdits(twin, c.edits ?? [], { twin })], `pacs.004 "${c.name}"`);
  }
});

/** A copy of a message with the value at `path` replaced (undefined: the member removed). */
function withValue(json: unknown, path: readonly (string | number)[], value: unknown): unknown {
  const copy = structuredClone(json) as Record<string, unknown>;
  let node: Record<string, unknown> = copy;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string, unknown>;
  const last = path[path.length - 1]!;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}

test('values at each facet’s edge: the proof is never looser than libxml2, and proves the plain ones', async () => {
  const iso = await loadIsoSchemas();
  const proves = await loadProofs();
  const payment = buildPacs008({ seed: 'edges' });
  const header = ['fitoFICstmrCdtTrf', 'grpHdr'];
  const amount = ['fitoFICstmrCdtTrf', 'cdtTrfTxInf', 0, 'intrBkSttlmAmt'];
  const at = (path: (string | number)[], value: unknown): Sample => [
    'pacs.008.001.10',
    withValue(payment, path, value),
  ];
  const edges: [Sample, 'proven' | 'either'][] = [
    [at([...header, 'msgId'], 'M'.repeat(35)), 'proven'],
    [at([...header, 'msgId'], 'M'.repeat(36)), 'either'],
    [at([...header, 'msgId'], ''), 'either'],
    [at([...header, 'msgId'], 'tab\there'), 'either'],
    [at([...header, 'msgId'], 'bell\u0007'), 'either'],
    [at([...header, 'msgId'], '\u{1F4B6}'.repeat(20)), 'either'],
    [at([...header, 'msgId'], '\uD800'), 'either'],
    [at([...header, 'msgId'], 'non\u00A0breaking'), 'proven'],
    [at([...header, 'msgId'], 12345), 'proven'],
    [at([...header, 'msgId'], null), 'either'],
    [at([...header, 'msgId'], ['M1', 'M2']), 'either'],
    [at([...header, 'msgId'], { value: 'M1' }), 'either'],
    [at([...header, 'creDtTm'], '2028-02-29T10:00:00Z'), 'proven'],
    [at([...header, 'creDtTm'], '2027-02-29T10:00:00Z'), 'either'],
    [at([...header, 'creDtTm'], '2100-02-29T10:00:00Z'), 'either'],
    [at([...header, 'creDtTm'], '2026-04-31T10:00:00Z'), 'either'],
    [at([...header, 'creDtTm'], '2026-12-31T23:59:59.123456789+13:59'), 'proven'],
    [at([...header, 'creDtTm'], '2026-12-31T24:00:00Z'), 'either'],
    [at([...header, 'creDtTm'], '0000-01-01T00:00:00Z'), 'either'],
    [at([...header, 'creDtTm'], '2026-11-29T10:00:00+14:00'), 'either'],
    [at([...header, 'creDtTm'], ' 2026-11-29T10:00:00Z'), 'either'],
    [at([...header, 'creDtTm'], '2026-11-29'), 'either'],
    [at([...header, 'nbOfTxs'], '1'.repeat(15)), 'proven'],
    [at([...header, 'nbOfTxs'], '1'.repeat(16)), 'either'],
    [at([...header, 'nbOfTxs'], '١'), 'either'],
    [at([...amount, 'value'], 0.00001), 'proven'],
    [at([...amount, 'value'], 0.000001), 'either'],
    [at([...amount, 'value'], '1234567890123.12345'), 'proven'],
    [at([...amount, 'value'], '12345678901234.12345'), 'either'],
    [at([...amount, 'value'], 1e21), 'either'],
    [at([...amount, 'value'], -0), 'either'],
    [at([...amount, 'value'], -1), 'either'],
    [at([...amount, 'value'], '12.50'), 'proven'],
    [at([...amount, 'value'], '12.'), 'either'],
    [at([...amount, 'value'], '+12'), 'either'],
    [at([...amount, 'value'], true), 'either'],
    [at([...amount, 'value'], null), 'either'],
    [at([...amount, 'ccy'], 'gbp'), 'either'],
    [at([...amount, 'Ccy'], 'GBP'), 'either'],
    [at([...amount, 'xyz'], 'GBP'), 'either'],
    [at([...amount, 'ccy'], undefined), 'either'],
    [at(['fitoFICstmrCdtTrf', 'cdtTrfTxInf'], []), 'either'],
    [at(['fitoFICstmrCdtTrf', 'cdtTrfTxInf', 1], null), 'proven'],
    [at(['fIToFICstmrCdtTrf'], payment.fitoFICstmrCdtTrf), 'either'],
    [at([...header, 'sttlmInf', 'sttlmMtd'], 'XXXX'), 'either'],
    [at([...header, 'sttlmInf', 'sttlmMtd'], ['CLRG']), 'proven'],
    [at([...header, 'sttlmInf', 'sttlmMtd'], ['CLRG', 'CLRG']), 'either'],
    [at([...header, 'splmtryData'], [{ envlp: {} }]), 'either'],
    [at(['fitoFICstmrCdtTrf', 'splmtryData'], [{ envlp: {} }]), 'either'],
    [at(['fitoFICstmrCdtTrf', 'cdtTrfTxInf', 0, 'pmtId', 'uetr'], 'G69fc2d9-10d4-4305-8456-12be5d671a39'), 'either'],
    [at(['fitoFICstmrCdtTrf', 'cdtTrfTxInf', 0, 'pmtId', 'uetr'], '669fc2d9-10d4-4305-8456-12be5d671a39\n'), 'either'],
  ];
  for (const [index, [sample, expected]] of edges.entries()) {
    assertSound(iso, sample, `edge ${index + 1}`);
    if (expected === 'proven')
      assert.ok(proven(iso, proves, sample[0], sample[1]), `not proven: ${JSON.stringify(sample[1])}`);
  }
});

/** Every path to a member of a JSON value, arrays' items included. */
function pathsOf(json: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (typeof json !== 'object' || json === null) return [];
  const entries: [string | number, unknown][] = Array.isArray(json) ? json.map((v, i) => [i, v]) : Object.entries(json);
  return entries.flatMap(([key, value]) => [[...prefix, key], ...pathsOf(value, [...prefix, key])]);
}

const awkward = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: fc.constantFrom('A', 'z', '0', '9', '-', '.', ' ', 'T', ':', '+', 'Z', '\t'), maxLength: 40 }),
  fc.constantFrom('2026-02-29', '2028-02-29', '2026-11-31T10:00:00', '24:00:00', 'true', '1', 'CLRG', 'GBP', 'EUR1'),
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
);

test('random single changes to valid messages: what the proof shows valid, libxml2 accepts', async () => {
  const iso = await loadIsoSchemas();
  const samples = [...validMessages(6), ...answerMessages()];
  fc.assert(
    fc.property(
      fc.constantFrom(...samples),
      fc.nat(),
      fc.oneof(
        awkward.map((value) => ({ kind: 'set' as const, value })),
        fc.constant({ kind: 'remove' as const }),
        fc.constant({ kind: 'wrap' as const }),
        fc.constant({ kind: 'rename' as const }),
      ),
      ([message, json], pick, change) => {
        const paths = pathsOf(json);
        const path = paths[pick % paths.length]!;
        let changed: unknown;
        if (change.kind === 'set') changed = withValue(json, path, change.value);
        else if (change.kind === 'remove') changed = withValue(json, path, undefined);
        else {
          let value: unknown = json;
          for (const step of path) value = (value as Record<string | number, unknown>)[step];
          if (change.kind === 'wrap') changed = withValue(json, path, [value, value]);
          else {
            // The same member again under another spelling: the tag itself.
            const last = String(path[path.length - 1]);
            changed = withValue(json, [...path.slice(0, -1), last.charAt(0).toUpperCase() + last.slice(1)], value);
          }
        }
        assertSound(iso, [message, changed], `${message} ${change.kind} at ${path.join('.')}`);
      },
    ),
    { numRuns: 3000, seed: 20261129 },
  );
});
