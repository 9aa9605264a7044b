/**
 * Pairwise covering arrays: few rows such that every value of any factor meets every value of any
 * other factor in at least one row. The dialect matrix runs one reference dialect per row, so each
 * pair of "not shown" choices is tried together at least once for the price of a dozen dialects,
 * not the millions of all combinations.
 *
 * IPOG (Lei et al., "IPOG: a general strategy for t-way software testing", 2007) for t = 2: the two
 * largest factors are crossed, then each further factor is added to the rows present (each row takes
 * the value covering the most pairs still missing) and rows are added for what is left. Deterministic;
 * slots no pair needs take the factor's first value (a dialect field's default).
 */

export type Level = string | number;

export interface Factor {
  name: string;
  /** The values; the first is the one a slot takes when no pair needs it. */
  values: readonly Level[];
}

export type Row = Record<string, Level>;

/** The pairs of value indexes of factors i < j still to cover, as a set of "a,b" per (i, j). */
type Missing = Map<string, Set<string>>;

const pairKey = (i: number, j: number): string => `${i}|${j}`;

/** Every row of the array, keyed by factor name; factors with one value are in every row with it. */
export function pairwiseCover(factors: readonly Factor[]): Row[] {
  for (const f of factors) if (!f.values.length) throw new Error(`factor ${f.name} has no value`);
  if (new Set(factors.map((f) => f.name)).size !== factors.length) throw new Error('factor names must be unique');
  // Largest first: the first two are crossed whole, which is the bound the array cannot go under.
  const order = factors
    .map((f, i) => ({ f, i }))
    .sort((a, b) => b.f.values.length - a.f.values.length || a.i - b.i)
    .map((x) => x.f);
  const sizes = order.map((f) => f.values.length);
  if (order.length === 0) return [];
  if (order.length === 1) return sizes[0]! ? order[0]!.values.map((v) => ({ [order[0]!.name]: v })) : [];

  // Rows of value indexes; -1 is a slot no pair needs yet.
  const rows: number[][] = [];
  for (let a = 0; a < sizes[0]!; a++) for (let b = 0; b < sizes[1]!; b++) rows.push([a, b]);

  for (let k = 2; k < order.length; k++) {
    const missing: Missing = new Map();
    for (let i = 0; i < k; i++) {
      const set = new Set<string>();
      for (let a = 0; a < sizes[i]!; a++) for (let c = 0; c < sizes[k]!; c++) set.add(`${a},${c}`);
      missing.set(pairKey(i, k), set);
    }
    const gain = (row: number[], c: number): number => {
      let n = 0;
      for (let i = 0; i < k; i++) if (row[i]! >= 0 && missing.get(pairKey(i, k))!.has(`${row[i]},${c}`)) n++;
      return n;
    };
    const cover = (row: number[]): void => {
      for (let i = 0; i < k; i++) if (row[i]! >= 0) missing.get(pairKey(i, k))!.delete(`${row[i]},${row[k]}`);
    };
    // Horizontal growth: each row takes the value of factor k that covers the most missing pairs.
    for (const row of rows) {
      let best = 0;
      let bestGain = -1;
      for (let c = 0; c < sizes[k]!; c++) {
        const g = gain(row, c);
        if (g > bestGain) [best, bestGain] = [c, g];
      }
      row[k] = bestGain > 0 ? best : -1;
      if (row[k]! >= 0) cover(row);
    }
    // Vertical growth: every pair still missing goes into a row whose slots allow it, else a new row.
    for (let i = 0; i < k; i++) {
      for (const pair of [...missing.get(pairKey(i, k))!]) {
        const [a, c] = pair.split(',').map(Number) as [number, number];
        const fits = rows.find((row) => (row[i] === a || row[i] === -1) && (row[k] === c || row[k] === -1));
        if (fits) {
          fits[i] = a;
          fits[k] = c;
          cover(fits);
        } else {
          const row = Array.from({ length: k + 1 }, () => -1);
          row[i] = a;
          row[k] = c;
          rows.push(row);
          cover(row);
        }
      }
    }
  }
  eliminateRows(rows, sizes);
  return rows.map((row) => Object.fromEntries(order.map((f, i) => [f.name, f.values[Math.max(0, row[i] ?? 0)]!])));
}

/**
 * A row goes when the pairs only it covers fit into the free slots (-1) of the others: IPOG adds rows
 * for the last missing pairs one by one, and some of them end up holding a pair or two that room
 * elsewhere could hold. Last rows first; repeated until no row goes.
 */
function eliminateRows(rows: number[][], sizes: readonly number[]): void {
  const n = sizes.length;
  const coverCount = new Map<string, number>();
  const pairsOf = (row: number[]): string[] => {
    const out: string[] = [];
    for (let i = 0; i < n; i++)
      for (let j = i + 1; j < n; j++) if (row[i]! >= 0 && row[j]! >= 0) out.push(`${i}:${row[i]}|${j}:${row[j]}`);
    return out;
  };
  for (const row of rows) for (const p of pairsOf(row)) coverCount.set(p, (coverCount.get(p) ?? 0) + 1);
  for (let changed = true; changed; ) {
    changed = false;
    for (let r = rows.length - 1; r >= 0; r--) {
      const victim = rows[r]!;
      const unique = pairsOf(victim).filter((p) => coverCount.get(p) === 1);
      const others = rows.filter((_, x) => x !== r).map((row) => [...row]);
      const placed = unique.every((p) => {
        const [[i, a], [j, b]] = p.split('|').map((s) => s.split(':').map(Number)) as [
          [number, number],
          [number, number],
        ];
        const fits = others.find((row) => (row[i] === a || row[i] === -1) && (row[j] === b || row[j] === -1));
        if (!fits) return false;
        fits[i] = a;
        fits[j] = b;
        return true;
      });
      if (!placed) continue;
      rows.splice(0, rows.length, ...others);
      coverCount.clear();
      for (const row of rows) for (const p of pairsOf(row)) coverCount.set(p, (coverCount.get(p) ?? 0) + 1);
      changed = true;
      break;
    }
  }
}

/** The pairs of two factors' values no row holds (empty for a covering array): for tests and a run's own check. */
export function uncoveredPairs(factors: readonly Factor[], rows: readonly Row[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < factors.length; i++) {
    for (let j = i + 1; j < factors.length; j++) {
      const [f, g] = [factors[i]!, factors[j]!];
      for (const a of f.values)
        for (const b of g.values)
          if (!rows.some((r) => r[f.name] === a && r[g.name] === b)) out.push(`${f.name}=${a} & ${g.name}=${b}`);
    }
  }
  return out;
}
