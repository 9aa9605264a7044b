/**
 * An offline HTML copy of the spec (spec/payments-api.md) with a stable anchor per section, rendered
 * next to every report so that the report's spec links resolve without a network: no external asset,
 * no script. Pure; covers the Markdown the spec uses (headings, paragraphs, nested lists, tables,
 * `code`, **bold**).
 *
 * Anchors (record/spec-links.ts): a heading "### 4.2 POST …" is `section-4.2`; the numbered items of
 * a section without sub-headings (§5's "1." … "7.") are `section-5.1` … `section-5.7`; numbered items
 * nested in a bullet (§1's cancellation rules) are `section-1-rule-3`.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { firstSection, sectionAnchor } from './spec-links';

export const SPEC_FILE = path.resolve(__dirname, '..', 'spec', 'payments-api.md');

const esc = (s: string): string => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function inline(text: string): string {
  return text
    .split(/(`[^`]+`)/)
    .map((part) =>
      part.startsWith('`') && part.endsWith('`') && part.length > 1
        ? `<code>${esc(part.slice(1, -1))}</code>`
        : esc(part).replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>'),
    )
    .join('');
}

const cells = (line: string): string[] =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => c.trim());

interface ListLine {
  indent: number;
  ordered: boolean;
  number?: number;
  text: string;
}

const LIST = /^(\s*)([-*]|(\d+)\.)\s+(.*)$/;

export function renderSpecHtml(markdown: string, source = 'spec/payments-api.md'): string {
  const lines = markdown.replace(/\r\n/g, '\n').split('\n');
  const out: string[] = [];
  const toc: { level: number; id: string; text: string }[] = [];
  const used = new Set<string>();
  const headingNumbers = new Set(
    lines.map((l) => /^#{2,6}\s+(\d+(?:\.\d+)*)\.?\s/.exec(l)?.[1]).filter(Boolean) as string[],
  );
  let section: string | undefined;
  let title = 'Specification';
  const unique = (id: string): string | undefined => {
    if (used.has(id)) return undefined;
    used.add(id);
    return id;
  };

  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (!line.trim()) {
      i++;
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const level = heading[1]!.length;
      const text = heading[2]!.trim();
      const number = /^(\d+(?:\.\d+)*)\.?\s/.exec(text)?.[1];
      if (level === 1) {
        title = text;
        out.push(`<h1 id="top">${inline(text)}</h1>`);
      } else {
        if (number && !number.includes('.')) section = number;
        const id = unique(number ? sectionAnchor(number) : `h-${text.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`);
        if (id) toc.push({ level, id, text });
        out.push(
          `<h${level}${id ? ` id="${esc(id)}"` : ''}>${id ? `<a class="self" href="#${esc(id)}">${inline(text)}</a>` : inline(text)}</h${level}>`,
        );
      }
      i++;
      continue;
    }
    if (line.trim().startsWith('|')) {
      const rows: string[] = [];
      while (i < lines.length && lines[i]!.trim().startsWith('|')) rows.push(lines[i++]!);
      const [head, ...rest] = rows;
      const body = rest.filter((r) => !/^\s*\|?\s*:?-{2,}/.test(r));
      out.push(
        `<table><thead><tr>${cells(head!)
          .map((c) => `<th>${inline(c)}</th>`)
          .join('')}</tr></thead><tbody>${body
          .map(
            (r) =>
              `<tr>${cells(r)
                .map((c) => `<td>${inline(c)}</td>`)
                .join('')}</tr>`,
          )
          .join('')}</tbody></table>`,
      );
      continue;
    }
    if (LIST.test(line)) {
      const items: ListLine[] = [];
      while (i < lines.length && LIST.test(lines[i]!)) {
        const m = LIST.exec(lines[i++]!)!;
        items.push({
          indent: m[1]!.length,
          ordered: Boolean(m[3]),
          ...(m[3] ? { number: Number(m[3]) } : {}),
          text: m[4]!,
        });
      }
      out.push(renderList(items, section, headingNumbers, unique));
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && lines[i]!.trim() && !/^(#{1,6}\s|\s*\|)/.test(lines[i]!) && !LIST.test(lines[i]!))
      para.push(lines[i++]!.trim());
    out.push(`<p>${inline(para.join(' '))}</p>`);
  }

  const digest = createHash('sha256').update(markdown).digest('hex').slice(0, 16);
  const nav = toc.map((t) => `<li class="l${t.level}"><a href="#${esc(t.id)}">${inline(t.text)}</a></li>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1f2328}nav{padding:.5em 2em;border-bottom:1px solid #ddd;background:#f6f8fa;font-size:13px;columns:2 22em}
nav ul{list-style:none;padding:0;margin:0}nav li.l3{padding-left:1em}main{padding:1em 2em;max-width:70em}
table{border-collapse:collapse;margin:.5em 0 1em}th,td{border:1px solid #d0d7de;padding:3px 8px;text-align:left;vertical-align:top}th{background:#f6f8fa}
code{background:#eff1f3;padding:0 3px;border-radius:3px}a.self{color:inherit;text-decoration:none}a.self:hover{text-decoration:underline}
a.num{color:#57606a;font-size:12px;margin-right:.4em;text-decoration:none}:target{background:#fff8c5;outline:2px solid #d4a72c}.meta{color:#57606a;font-size:12px}
</style></head><body>
<nav><b>Sections</b><ul>${nav}</ul></nav>
<main>
<p class="meta">Offline copy of <code>${esc(source)}</code> (sha256 ${digest}…), rendered with the report. Anchors: <code>#section-4.2</code> for §4.2, <code>#section-5.4</code> for item 4 of §5, <code>#section-1-rule-3</code> for §1 rule 3.</p>
${out.join('\n')}
</main></body></html>
`;
}

function renderList(
  items: ListLine[],
  section: string | undefined,
  headingNumbers: ReadonlySet<string>,
  unique: (id: string) => string | undefined,
): string {
  let html = '';
  const stack: { indent: number; tag: string }[] = [];
  for (const item of items) {
    while (stack.length && item.indent < stack.at(-1)!.indent) html += `</li></${stack.pop()!.tag}>`;
    const top = stack.at(-1);
    if (!top || item.indent > top.indent) {
      const tag = item.ordered ? 'ol' : 'ul';
      html += `<${tag}${item.ordered && item.number && item.number !== 1 ? ` start="${item.number}"` : ''}>`;
      stack.push({ indent: item.indent, tag });
    } else html += '</li>';
    let id: string | undefined;
    if (item.ordered && item.number !== undefined && section) {
      const nested = stack.length > 1;
      const candidate = nested
        ? `${sectionAnchor(section)}-rule-${item.number}`
        : headingNumbers.has(`${section}.${item.number}`)
          ? undefined
          : sectionAnchor(`${section}.${item.number}`);
      if (candidate) id = unique(candidate);
    }
    const label = id ? (id.includes('-rule-') ? `§${section} rule ${item.number}` : `§${section}.${item.number}`) : '';
    html += `<li${id ? ` id="${id}"` : ''}>${id ? `<a class="num" href="#${id}">${label}</a>` : ''}${inline(item.text)}`;
  }
  while (stack.length) html += `</li></${stack.pop()!.tag}>`;
  return html;
}

/** spec/payments-api.md rendered. */
export const specHtml = (file = SPEC_FILE): string =>
  renderSpecHtml(readFileSync(file, 'utf8'), path.relative(path.resolve(__dirname, '..'), file));

const sourceCache = new Map<string, string[]>();

/**
 * Where a ledger section starts in the spec's source, as a path a terminal and an editor open:
 * '§4.2 §7' → 'spec/payments-api.md:212', the line of its first section's heading, or of the
 * numbered item it names (§5.4 is item 4 of §5); the spec's first line when neither is found.
 */
export function specSourceLine(section: string, file = SPEC_FILE): string {
  const relative = path.relative(process.cwd(), file) || file;
  let lines = sourceCache.get(file);
  if (!lines) sourceCache.set(file, (lines = readFileSync(file, 'utf8').replace(/\r\n/g, '\n').split('\n')));
  const number = firstSection(section);
  const headingOf = (n: string): number =>
    lines.findIndex((l) => new RegExp(`^#{2,6}\\s+${n.replace(/\./g, '\\.')}\\.?\\s`).test(l));
  let at = number ? headingOf(number) : -1;
  if (number && at < 0 && number.includes('.')) {
    const parent = headingOf(number.slice(0, number.lastIndexOf('.')));
    const item = number.slice(number.lastIndexOf('.') + 1);
    if (parent >= 0) {
      const next = lines.findIndex((l, i) => i > parent && /^#{1,6}\s/.test(l));
      const found = lines.findIndex(
        (l, i) => i > parent && (next < 0 || i < next) && new RegExp(`^${item}\\.\\s`).test(l),
      );
      at = found >= 0 ? found : parent;
    }
  }
  return `${relative}:${Math.max(at, 0) + 1}`;
}
