/**
 * Links from a ledger rule's section (ledger/rules.ts: '§4.2 §7', '§1 rule 4 §3', '§2.5')
 * to the spec. Pure: the anchors are those record/spec-html.ts gives each section of
 * spec/payments-api.md (`section-4.2`), and the default base is the offline copy rendered next to
 * every report (`spec.html`); a profile's `specUrl` replaces it.
 */
export const DEFAULT_SPEC_BASE = 'spec.html';

/** The anchor of one section number: '4.2' → 'section-4.2'. */
export const sectionAnchor = (section: string): string => `section-${section}`;

/** The first section a ledger section text cites ('§1 rule 4 §3' → '1'), or undefined. */
export function firstSection(text: string): string | undefined {
  return /§\s*(\d+(?:\.\d+)*)/.exec(text)?.[1];
}

/** The spec link of a ledger section: base (without its fragment) + '#' + the first section's anchor. */
export function specLink(section: string, base: string = DEFAULT_SPEC_BASE): string {
  const root = (base || DEFAULT_SPEC_BASE).replace(/#.*$/, '');
  const first = firstSection(section);
  return first ? `${root}#${sectionAnchor(first)}` : root;
}

/**
 * allure.link's arguments for a rule: the URL and a name, "spec §4.2 §7 (P8-01)". The report makes a
 * link to the offline copy open it at the section (scripts/lib/report-page.ts); the terminal names
 * the section's line in the spec's source instead (specSourceLine).
 */
export function specLinkFor(section: string, ruleId: string, base?: string): [url: string, name: string] {
  return [specLink(section, base), `spec ${section} (${ruleId})`];
}
