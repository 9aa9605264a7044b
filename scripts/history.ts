/**
 * `npm run history -- [<run>] [--json]`: judges a kept run's history again (checks/history.ts), the
 * same judgement the run made at its end, and prints the History block (or, with --json, the whole
 * verdict). A run is named as the other commands name it: `last` (default), `previous`, `last~N`, a
 * run id or a run folder. Exit 0 when no property is violated, 1 when one is, 2 when there is no
 * history to judge.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { suiteEnvironment } from '../profile/run-settings';
import { availableRunsText, resolveRun } from '../record/run-folder';
import { historyDir } from '../record/history';
import { historyBlock, historyFailed, judgeRunHistory } from '../runner/history';
import { cliMain } from './lib/cli';

const USAGE = 'usage: npm run history -- [last | previous | last~N | <run id> | <run folder>] [--json]';

export function historyOf(
  spec: string,
  runsRoot = suiteEnvironment().runsRoot,
): { runDir: string; ok: boolean; text: string } {
  const runDir = resolveRun(spec, runsRoot);
  if (!runDir) throw new Error(`no run "${spec}": ${availableRunsText(runsRoot)}`);
  if (!existsSync(historyDir(runDir)))
    throw new Error(
      `run ${path.basename(runDir)} kept no history (no ${path.join(path.basename(runDir), 'history')}/): it was made before the history was recorded`,
    );
  const verdicts = judgeRunHistory(runDir);
  return { runDir, ok: !historyFailed(verdicts), text: historyBlock(verdicts, runDir).join('\n') };
}

if (require.main === module)
  cliMain(USAGE, async () => {
    const { values, positionals } = parseArgs({
      args: process.argv.slice(2),
      options: { json: { type: 'boolean', default: false } },
      allowPositionals: true,
      strict: true,
    });
    const { runDir, ok, text } = historyOf(positionals[0] ?? 'last');
    if (values.json) console.log(JSON.stringify(judgeRunHistory(runDir), null, 2));
    else console.log(`run ${path.relative(process.cwd(), runDir)}\n${text}`);
    return ok;
  });
