/**
 * npm test's scheduling (scripts/npm-test.ts): lanes that run side by side, each with steps of its own
 * and then the next step of a shared queue, so the lane free first goes on, whichever it is. A step
 * that reads another's output names it (`after`) and starts once that one has ended.
 */
export interface LaneStep {
  name: string;
  /** The step whose output this one reads: it starts after that one ends. */
  after?: string;
}

export async function runLanes<S extends LaneStep, O>(
  own: readonly (readonly S[])[],
  queue: readonly S[],
  run: (step: S) => Promise<O>,
): Promise<O[]> {
  const started = new Map<string, Promise<O>>();
  const waiting = [...queue];
  const start = (step: S): Promise<O> => {
    const before = step.after ? started.get(step.after) : undefined;
    const outcome = (before ?? Promise.resolve()).then(() => run(step));
    started.set(step.name, outcome);
    return outcome;
  };
  const lane = async (steps: readonly S[]): Promise<O[]> => {
    const outcomes: O[] = [];
    for (const step of steps) outcomes.push(await start(step));
    for (let step = waiting.shift(); step; step = waiting.shift()) outcomes.push(await start(step));
    return outcomes;
  };
  return (await Promise.all(own.map(lane))).flat();
}

/**
 * No schedule runs the steps faster than their CPU seconds spread over every core: the line says how
 * close the lanes came, so that a slower npm test reads as more work or as worse packing. Those CPU
 * seconds are the waited-for processes' only; how busy the machine's cores were (`busy`, every process
 * counted, the references the steps leave to exit on their own too) tells a saturated machine from
 * idle cores.
 */
export function cpuFloorLine(wallSeconds: number, cpuSeconds: number, cores: number, busy?: number): string {
  const floor = cpuSeconds / cores;
  const line = `CPU floor on ${cores} cores: ${floor.toFixed(0)} s (${cpuSeconds.toFixed(0)} CPU-s ÷ ${cores}); the wall time is ${(wallSeconds / floor).toFixed(2)}× it`;
  return busy === undefined
    ? line
    : `${line}; the cores were busy ${(100 * busy).toFixed(0)} % of the wall time (every process on the machine, the references too)`;
}
