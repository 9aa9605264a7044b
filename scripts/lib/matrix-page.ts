/** Renders the kill matrix (scripts/mutation.ts) as one standalone HTML page: no scripts, no external assets. */
import type { Matrix, FaultResult, Verdict } from './matrix';
import { OPERATIONS, OPERATION_LABELS } from '../../ledger/operations';

const escapeHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:2rem auto;max-width:1200px;padding:0 1rem;color:#1d232a}
h1{font-size:1.5rem;margin-bottom:.2rem} h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #d8dee4;padding-bottom:.3rem}
.meta{color:#57606a} code{font:12px ui-monospace,Menlo,Consolas,monospace;background:#f3f5f7;padding:1px 4px;border-radius:3px}
.cards{display:flex;gap:.8rem;flex-wrap:wrap;margin:1rem 0}
.card{border:1px solid #d8dee4;border-radius:6px;padding:.6rem 1rem;min-width:8rem}
.card b{display:block;font-size:1.6rem}
.killed b{color:#1a7f37} .survived b{color:#cf222e} .na b{color:#9a6700} .clean-bad b{color:#cf222e}
table{border-collapse:collapse;width:100%} th,td{text-align:left;vertical-align:top;border-bottom:1px solid #eaeef2;padding:.35rem .5rem}
th{background:#f6f8fa;position:sticky;top:0}
tr.survived td{background:#ffebe9} tr.na td{background:#fff8c5}
.verdict{font-weight:600;white-space:nowrap} .verdict.killed{color:#1a7f37} .verdict.survived{color:#cf222e} .verdict.na{color:#9a6700}
td code{white-space:nowrap}
ul.tests{margin:0;padding-left:1.1rem} ul.tests li{font-size:12px}
.problems{border:1px solid #cf222e;background:#ffebe9;padding:.5rem 1rem;border-radius:6px}
details summary{cursor:pointer;color:#0969da}
`;

const cls = (v: FaultResult['verdict']): string => (v === 'not applicable' || v === 'equivalent' ? 'na' : v);

function testsCell(f: FaultResult): string {
  if (!f.failing.length) return `<span class="meta">${escapeHtml(f.reason)}</span>`;
  const items = [
    ...(f.historyViolations
      ? [`<li><b>the run’s history</b>: ${f.historyViolations} violation(s) of ${escapeHtml(f.rule)}</li>`]
      : []),
    ...f.failing.map((t) => `<li>${escapeHtml(t)}</li>`),
  ];
  if (items.length <= 4) return `<ul class="tests">${items.join('')}</ul>`;
  return `<ul class="tests">${items.slice(0, 3).join('')}</ul><details><summary>${items.length - 3} more</summary><ul class="tests">${items.slice(3).join('')}</ul></details>`;
}

function row(f: FaultResult): string {
  return `<tr class="${cls(f.verdict)}">
<td><code>${escapeHtml(f.name)}</code><div class="meta">${escapeHtml(f.description)}</div></td>
<td><code>${escapeHtml(f.rule)}</code></td>
<td>${escapeHtml(f.ruleStatement)}${f.ruleLevel === 'assumption' ? ' <span class="meta">(assumption)</span>' : ''}</td>
<td class="verdict ${cls(f.verdict)}">${escapeHtml(f.verdict)}${f.failing.length ? ` (${f.failing.length})` : ''}</td>
<td>${testsCell(f)}</td>
</tr>`;
}

export function renderMutationPage(m: Matrix): string {
  const survivors = m.faults.filter((f) => f.verdict === 'survived');
  const cleanOk = m.clean.failed === 0 && m.clean.historyViolations === 0;
  const verdictLine = !m.complete
    ? 'The run did not complete: the matrix is partial.'
    : !cleanOk
      ? 'The clean run failed: no fault verdict can be trusted until it passes.'
      : survivors.length
        ? `${survivors.length} fault(s) survived: each points at a rule the suite does not (yet) prove.`
        : 'Every applicable fault was killed: each broken rule made at least one test fail.';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Kill matrix — ${escapeHtml(m.profile)}</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><style>${CSS}</style></head>
<body>
<h1>Fault-injection kill matrix</h1>
<p class="meta">profile <code>${escapeHtml(m.profile)}</code> · scope <code>${escapeHtml(m.scope)}</code> · ${m.workers} workers · ${m.maxKills ? `each fault stops after ${m.maxKills} failing tests` : 'every test runs for every fault'} · wall time ${(m.wallMs / 1000).toFixed(1)} s · ${escapeHtml(m.generatedAt)}<br>
command <code>${escapeHtml(m.command)}</code></p>
<p>Each fault of the reference service breaks exactly one ledger rule. A fault is <b>killed</b> when at least one test fails
with it switched on${m.scope === 'cited' ? ' (only the tests citing the rule run against it)' : ''}, or the run’s history shows a violation of
its rule (a fault only the history sees runs its tests to their end); it <b>survived</b> when every test passed,
which means a missing or too weak test; it is <b>not applicable</b> when the rule needs a capability this profile does not grant.</p>
<p><b>${escapeHtml(verdictLine)}</b></p>
${m.problems.length ? `<div class="problems"><b>Incomplete run</b><ul>${m.problems.map((p) => `<li>${escapeHtml(p)}</li>`).join('')}</ul></div>` : ''}
<div class="cards">
<div class="card killed"><b>${m.summary.killed}</b>killed</div>
<div class="card survived"><b>${m.summary.survived}</b>survived</div>
<div class="card na"><b>${m.summary.notApplicable}</b>not applicable</div>
<div class="card na"><b>${m.summary.equivalent}</b>equivalent (rule implied by others)</div>
<div class="card ${cleanOk ? 'killed' : 'clean-bad'}"><b>${m.clean.failed}</b>clean-run failures (${m.clean.passed} passed, ${m.clean.skipped} skipped; ${m.clean.historyViolations} history violations)</div>
<div class="card"><b>${m.documentedRulesWithoutFault.length}</b>documented rules with no fault</div>
</div>
${
  m.clean.failures.length
    ? `<h2>Clean-run failures</h2><ul class="tests">${m.clean.failures.map((t) => `<li>${escapeHtml(t)}</li>`).join('')}</ul>`
    : ''
}
<h2>Survivors (${survivors.length})</h2>
${
  survivors.length
    ? `<table><thead><tr><th>fault</th><th>rule</th><th>rule statement</th><th>verdict</th><th>why</th></tr></thead><tbody>${survivors.map(row).join('\n')}</tbody></table>`
    : '<p>None.</p>'
}
<h2>Rule × operation</h2>
<p class="meta">Each documented rule on each operation it governs: <b>✓</b> a fault there was killed, <b>✖</b> one survived, <b>–</b> not applicable on this profile, <b>·</b> no fault breaks the rule on that operation (a fault that breaks it everywhere counts on the operations whose tests killed it).</p>
${gridTable(m)}
<h2>All faults</h2>
<table><thead><tr><th>fault</th><th>rule</th><th>rule statement</th><th>verdict</th><th>failing tests</th></tr></thead>
<tbody>
${m.faults.map(row).join('\n')}
</tbody></table>
<h2>Documented rules with no fault (${m.documentedRulesWithoutFault.length})</h2>
<p class="meta">No fault of the reference breaks these rules, so this matrix does not prove the tests citing them can fail.</p>
${
  m.documentedRulesWithoutFault.length
    ? `<table><thead><tr><th>rule</th><th>section</th><th>statement</th></tr></thead><tbody>${m.documentedRulesWithoutFault
        .map(
          (r) =>
            `<tr><td><code>${escapeHtml(r.id)}</code></td><td>${escapeHtml(r.section)}</td><td>${escapeHtml(r.statement)}</td></tr>`,
        )
        .join('\n')}</tbody></table>`
    : '<p>None: every documented rule has a fault.</p>'
}
</body></html>
`;
}

function cell(verdicts: readonly Verdict[] | undefined): string {
  if (verdicts === undefined) return '<td></td>';
  if (!verdicts.length) return '<td class="meta">·</td>';
  if (verdicts.includes('survived')) return '<td class="verdict survived">✖</td>';
  if (verdicts.includes('killed')) return '<td class="verdict killed">✓</td>';
  return '<td class="verdict na">–</td>';
}

function gridTable(m: Matrix): string {
  const head = OPERATIONS.map((op) => `<th title="${escapeHtml(OPERATION_LABELS[op])}">${escapeHtml(op)}</th>`).join(
    '',
  );
  const rows = m.grid.map(
    (g) =>
      `<tr><td><code>${escapeHtml(g.rule)}</code></td>${OPERATIONS.map((op) => cell(g.operations[op])).join('')}</tr>`,
  );
  return `<table><thead><tr><th>rule</th>${head}</tr></thead><tbody>${rows.join('\n')}</tbody></table>`;
}
