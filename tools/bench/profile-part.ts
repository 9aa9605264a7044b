/**
 * Where the time of a full local run goes: the run once more with the probe in every process (CPU
 * profiles of the runner, the workers and the reference; every HTTP request), read as CPU per
 * activity and as a timeline of each worker up to its first request.
 */
import { measureSuite, type Measured } from './suite-run';
import { breakdown, type Breakdown } from './breakdown';
import { WORKERS } from './targets';

export interface ProfileResult {
  run: Measured;
  breakdown: Breakdown;
}

export async function profilePart(): Promise<ProfileResult> {
  const run = await measureSuite(`profiled full local run, ${WORKERS} workers`, {
    project: 'local',
    workers: WORKERS,
    probe: true,
  });
  return { run, breakdown: breakdown(run.processes, run.run.tests) };
}
