/**
 * A quick proof that libxml2 would accept a message: the JSON walked once against the XSD's model
 * (./xsd-model.ts), each value held to its type's facets as the XSD writes them. Where it holds, the
 * document the mapping writes (./xml.ts) is valid under the XSD; where it does not, it proves
 * nothing, and libxml2 decides (./validate.ts), with its findings. So it may only ever be stricter
 * than the XSD: it knows ISO's plain constructs (a sequence or choice of elements, an amount and its
 * attributes, a string's lengths, pattern and enumeration, a decimal's digits and lower bound, a
 * date, a date-time, a boolean) in the forms the suite writes them, and proves nothing about anything
 * else (a wildcard, xs:time, xs:gYear, a day past the 28th of February, a control character, a
 * member spelled in two ways). A message that libxml2 refuses is always libxml2's to explain.
 *
 * Why it exists: a full local run holds about 2,400 messages to their XSD. Mapping, parsing and
 * validating each one in libxml2 (WebAssembly) costs several times what this walk costs.
 * tests/unit/messages/iso20022-proof.test.ts holds it to libxml2: whatever it proves, libxml2 accepts.
 */
import { attributeFor, particleFor, scalarText } from './xml';
import type { Attribute, ComplexType, Particle, SimpleType, XsdModel } from './xsd-model';

type Check = (value: unknown) => boolean;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isScalar = (value: unknown): value is string | number | boolean =>
  typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean';

/**
 * Text the proof reads: printable characters of the Basic Multilingual Plane, no control character
 * (XML 1.0 forbids most of them; a tab or a line break is whitespace some types collapse), no
 * surrogate (a string's length in the XSD counts characters, in JavaScript UTF-16 units).
 */
const PLAIN_TEXT = /^[\x20-\x7E\u00A0-\uD7FF\uE000-\uFFFD]*$/;

/**
 * An XSD pattern as a JavaScript regular expression, where the two read it alike: ISO's patterns use
 * character classes of ASCII, quantifiers and groups. An XSD pattern matches the whole value.
 * Undefined for anything else (XSD's \i, \c, class subtraction [a-z-[aeiou]], \d's Unicode digits,
 * ^ and $, which XSD reads as characters).
 */
function patternOf(xsdPattern: string): RegExp | undefined {
  if (!/^(?:[A-Za-z0-9[\]{}(),|?*+-]|\\[+\-.()])*$/.test(xsdPattern)) return undefined;
  // A class within a class: XSD's subtraction, which JavaScript reads otherwise.
  if (/\[[^\]]*\[/.test(xsdPattern)) return undefined;
  try {
    return new RegExp(`^(?:${xsdPattern})$`, 'u');
  } catch {
    return undefined;
  }
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** A year from 1000 to 9999, its month and its day, which that month has. */
function plainDate(year: string, month: string, day: string): boolean {
  const y = Number(year);
  const m = Number(month);
  const d = Number(day);
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  return m >= 1 && m <= 12 && d >= 1 && d <= (m === 2 && leap ? 29 : DAYS_IN_MONTH[m - 1]!);
}

const DATE = /^([1-9]\d{3})-(\d{2})-(\d{2})$/;
// Hours 00 to 23, seconds to 59 with at most nine decimals, a zone of Z or up to ±13:59.
const DATE_TIME =
  /^([1-9]\d{3})-(\d{2})-(\d{2})T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{1,9})?(?:Z|[+-](?:0\d|1[0-3]):[0-5]\d)?$/;
/** Text of a date form whose year, month and day (its first three groups) make a day that exists. */
const dated =
  (form: RegExp) =>
  (text: string): boolean => {
    const m = form.exec(text);
    return m !== null && plainDate(m[1]!, m[2]!, m[3]!);
  };
// A decimal as the mapping writes a JSON number (plainNumber): no sign but a minus, no exponent.
const DECIMAL = /^-?\d+(?:\.\d+)?$/;

/** The check of a built-in type's text, with the facets it knows; undefined where it knows not all of them. */
function builtInCheck(
  base: string,
  facets: readonly { name: string; value: string }[],
): ((text: string) => boolean) | undefined {
  const checks: ((text: string) => boolean)[] = [];
  const enumeration = facets.filter((f) => f.name === 'enumeration').map((f) => f.value);
  const patterns = facets.filter((f) => f.name === 'pattern');
  for (const facet of facets) {
    const n = Number(facet.value);
    switch (`${base} ${facet.name}`) {
      case 'xs:string minLength':
        checks.push((t) => t.length >= n);
        break;
      case 'xs:string maxLength':
        checks.push((t) => t.length <= n);
        break;
      case 'xs:string length':
        checks.push((t) => t.length === n);
        break;
      case 'xs:string enumeration':
      case 'xs:string pattern':
        break;
      // Digits counted in the text as written, trailing zeros and a leading 0 included: never fewer than the value has.
      case 'xs:decimal totalDigits':
        checks.push((t) => t.replace(/\D/g, '').length <= n);
        break;
      case 'xs:decimal fractionDigits':
        checks.push((t) => (t.split('.')[1] ?? '').length <= n);
        break;
      case 'xs:decimal minInclusive':
        if (facet.value !== '0') return undefined;
        checks.push((t) => !t.startsWith('-'));
        break;
      default:
        return undefined;
    }
  }
  if (enumeration.length > 0) {
    const allowed = new Set(enumeration);
    checks.push((t) => allowed.has(t));
  }
  // Patterns of one restriction: the value matches one of them.
  if (patterns.length > 0) {
    const regexps = patterns.map((p) => patternOf(p.value));
    if (regexps.some((r) => r === undefined)) return undefined;
    checks.push((t) => regexps.some((r) => r!.test(t)));
  }
  const all = (t: string): boolean => checks.every((c) => c(t));
  switch (base) {
    case 'xs:string':
      return all;
    case 'xs:decimal':
      return (t) => DECIMAL.test(t) && all(t);
    case 'xs:boolean':
      return facets.length === 0 ? (t) => t === 'true' || t === 'false' : undefined;
    case 'xs:date':
      return facets.length === 0 ? dated(DATE) : undefined;
    case 'xs:dateTime':
      return facets.length === 0 ? dated(DATE_TIME) : undefined;
    default:
      return undefined;
  }
}

/** The proof over one XSD's model: the checks of its types, built when first needed. */
export function validityProof(model: XsdModel): (message: unknown) => boolean {
  const textChecks = new Map<string, ((text: string) => boolean) | undefined>();
  const valueChecks = new Map<string, Check>();

  const textCheckOf = (typeName: string): ((text: string) => boolean) | undefined => {
    if (textChecks.has(typeName)) return textChecks.get(typeName);
    const simple: SimpleType | undefined = model.simpleTypes.get(typeName);
    // One restriction of a built-in type, as every one of ISO's simple types is; anything else proves nothing.
    const check = simple?.base.startsWith('xs:') ? builtInCheck(simple.base, simple.facets) : undefined;
    const guarded = check && ((t: string) => PLAIN_TEXT.test(t) && check(t));
    textChecks.set(typeName, guarded);
    return guarded;
  };

  const checkOf = (typeName: string): Check => {
    const known = valueChecks.get(typeName);
    if (known) return known;
    // A placeholder while the type is built: a type that contains itself is walked through the map.
    valueChecks.set(typeName, (value) => valueChecks.get(typeName)!(value));
    const complex = model.complexTypes.get(typeName);
    let check: Check;
    if (complex) check = complexCheck(complex);
    else {
      const text = textCheckOf(typeName);
      check = text ? (value) => isScalar(value) && text(scalarText(value)) : () => false;
    }
    valueChecks.set(typeName, check);
    return check;
  };

  const complexCheck = (type: ComplexType): Check => {
    if (type.open) return () => false;
    if (type.kind === 'simpleContent') {
      const text = textCheckOf(type.base);
      const attributeText = new Map(type.attributes.map((a) => [a, textCheckOf(a.type)]));
      if (!text || [...attributeText.values()].some((t) => !t)) return () => false;
      return (value) => {
        if (!isObject(value) || !isScalar(value.value) || !text(scalarText(value.value))) return false;
        const seen = new Set<Attribute>();
        for (const key of Object.keys(value)) {
          if (key === 'value') continue;
          const attribute = attributeFor(type, key);
          const v = value[key];
          if (!attribute || seen.has(attribute) || !isScalar(v) || !attributeText.get(attribute)!(scalarText(v)))
            return false;
          seen.add(attribute);
        }
        return type.attributes.every((a) => !a.required || seen.has(a));
      };
    }
    const required = type.children.filter((p) => p.minOccurs > 0).length;
    return (value) => {
      if (!isObject(value)) return false;
      // Each particle once: two spellings of one member (its tag and its JSON name) would be two elements.
      const present = new Set<Particle>();
      let requiredSeen = 0;
      for (const key of Object.keys(value)) {
        const member = value[key];
        // null is no element (xml.ts); an array whose items are all null is none either.
        if (member === null || member === undefined) continue;
        const particle = particleFor(type, key);
        if (!particle || present.has(particle)) return false;
        const items = Array.isArray(member) ? member.filter((i) => i !== null && i !== undefined) : [member];
        if (items.length === 0) continue;
        if (items.length < particle.minOccurs || items.length > particle.maxOccurs) return false;
        const check = checkOf(particle.type);
        for (const item of items) if (Array.isArray(item) || !check(item)) return false;
        present.add(particle);
        if (particle.minOccurs > 0) requiredSeen++;
      }
      // A choice: exactly one of its elements. A sequence: every required element.
      return type.kind === 'choice' ? present.size === 1 : requiredSeen === required;
    };
  };

  return checkOf(model.documentType);
}
