/**
 * `npm run ci-summary -- <results.json or folder of them>…`: a run's verdict as Markdown for a CI job's
 * summary page (GitHub's `$GITHUB_STEP_SUMMARY`): per project, the rules line the terminal's summary
 * opens with ("Rules (sandbox): 150 of 153 documented rules assessed, 2 violated") and what was not
 * assessed, then the failed tests, each with its rules and the claim that failed, and the counts.
 * Several reports (a sharded run's) are read as one run. Prints to stdout and exits 0, a run that left
 * no report included (it says so): the job's verdict is the run's exit code, not this.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { cliMain } from './lib/cli';
import { flattenReport, readReportFile, type ReportTest } from '../record/playwright-report';
import { assumptionsNotMetOf, checksOf, INCONCLUSIVE_ANNOTATION, outcomesOfReportTest } from '../ledger/outcomes';
import { describeRulesGlance, rulesAtAGlance, summariseRuleOutcomes } from '../ledger/rule-summary';
import { rules } from '../ledger/rules';
import { ruleIdsOf } from '../ledger/tags';
import { loadProfile, type Profile } from '../profile/profile';

const USAGE = 'usage: npm run ci-summary -- <results.json or a folder of them>…';

/** The JSON reports a list of files and folders names (a folder: every *.json in it). */
function reportFiles(args: readonly string[]): string[] {
  return args.flatMap((arg) => {
    if (!existsSync(arg)) throw new Error(`${arg} does not exist\n${USAGE}`);
    if (!statSync(arg).isDirectory()) return [arg];
    return readdirSync(arg)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => path.join(arg, f));
  });
}

const profileOf = (name: string): Profile | undefined => {
  try {
    return loadProfile(name);
  } catch {
    return undefined;
  }
};

/** A table cell: one line, no pipe of its own. */
const cell = (text: string): string =>
  stripVTControlCharacters(text)
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\|/g, '\\|')
    .slice(0, 400);

/** What a failed test claims: its failed checks, else its first error's first line. */
export function failedClaim(t: ReportTest): string {
  const failed = checksOf([...t.annotations, ...t.resultAnnotations]).filter((c) => !c.ok);
  const unique = [...new Map(failed.map((c) => [`${c.rule} ${c.what}`, c])).values()];
  if (unique.length) return unique.map((c) => `${c.rule} ${c.what}${c.detail ? `: ${c.detail}` : ''}`).join('; ');
  return (
    stripVTControlCharacters(t.errors[0] ?? 'the test failed')
      .replace(/^Error:\s*/, '')
      .split('\n')[0] ?? 'the test failed'
  );
}

/** The Markdown of one run's tests (every project in them). */
export function ciSummary(tests: readonly ReportTest[]): string {
  const lines: string[] = [];
  const projects = [...new Set(tests.map((t) => t.project))];
  for (const project of projects) {
    const own = tests.filter((t) => t.project === project);
    const outcomes = own.map((t) => ({ test: t.title, outcomes: outcomesOfReportTest(t) }));
    const notMet = own.flatMap((t) => assumptionsNotMetOf([...t.annotations, ...t.resultAnnotations]));
    const [first, ...rest] = describeRulesGlance(
      rulesAtAGlance(summariseRuleOutcomes(rules, outcomes, profileOf(project)), notMet),
    );
    lines.push(`### Rules (${project}): ${first}`, '', ...rest.map((l) => `- ${l}`), '');
    const failed = own.filter((t) => t.outcome === 'failed');
    if (failed.length) {
      lines.push(`**Failed tests (${failed.length})**`, '', '| test | rules | what failed |', '|---|---|---|');
      for (const t of failed)
        lines.push(
          `| ${cell(`${t.file ?? ''} › ${t.titlePath.slice(1).join(' › ')}`)} | ${ruleIdsOf(t.tags).join(' ')} | ${cell(failedClaim(t))} |`,
        );
      lines.push('');
    }
    const inconclusive = own.filter(
      (t) =>
        t.outcome === 'skipped' &&
        [...t.annotations, ...t.resultAnnotations].some((a) => a.type === INCONCLUSIVE_ANNOTATION),
    ).length;
    const skipped = own.filter((t) => t.outcome === 'skipped').length - inconclusive;
    lines.push(
      `\`${own.length - failed.length - skipped - inconclusive} passed, ${failed.length} failed, ${skipped} skipped${inconclusive ? `, ${inconclusive} inconclusive` : ''}\``,
      '',
    );
  }
  return lines.join('\n');
}

async function main(): Promise<boolean> {
  const args = process.argv.slice(2);
  if (!args.length) throw new Error(USAGE);
  const reports = reportFiles(args).flatMap((file) => {
    const report = readReportFile(file);
    return report ? [report] : [];
  });
  if (!reports.length) {
    console.log('### Conformance\n\nNo test report was written: the run did not start (see the job log).\n');
    return true;
  }
  console.log(ciSummary(reports.flatMap(flattenReport)));
  return true;
}

if (require.main === module) cliMain(USAGE, main);
