/**
 * Pairwise covering arrays: few rows such that every value of any factor meets every value of any
 * other factor in at least one row. The dialect matrix runs one reference dialect per row, so each
 * pair of "not shown" choices is tried together at least once for the price of a dozen dialects,
 * not the millions of all combinations.
 *
 * IPOG (Lei et al., "IPOG: a general strategy for t-way software testing", 2007) for t = 2: the two
 * largest factors are crossed, then each further factor is added to the rows present (each row takes
 * the value covering the most pairs still missing) and rows are added for what is left. Then a seeded
 * local search takes away one row at a time while it can cover every pair with the rows left: each
 * row is a dialect the matrix runs the whole suite against once or twice, and IPOG ends a few rows above
 * what such a search reaches; a few searches with generators of their own, the fewest rows kept. Deterministic; slots no pair needs take the factor's first value (a
 * dialect field's default). Where that still ends above the bound, fewestRows searches in two stages
 * (coverInRows): the dialect fields' 19 rows become 16, the bound.
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
  // A few searches from the same rows, each with a generator of its own, and the fewest rows kept: a
  // search that stalls a row above the bound often gets there with other moves.
  const start = rows.map((row) => sizes.map((_, i) => Math.max(0, row[i] ?? 0)));
  let fewest = withFewerRows(start, sizes, 0);
  for (let search = 1; search < SEARCHES; search++) {
    const other = withFewerRows(start, sizes, search);
    if (other.length < fewest.length) fewest = other;
  }
  return fewest.map((row) => Object.fromEntries(order.map((f, i) => [f.name, f.values[row[i]!]!])));
}

/** Moves the search tries for each row it takes away before it keeps the rows it has. */
const SEARCH_MOVES = 600_000;
/** Searches from the same rows, each with a generator of its own: the fewest rows are kept. */
const SEARCHES = 3;

/** A small seeded generator (mulberry32): the same factors give the same rows on every machine. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Rows of value indexes (every slot set) covering every pair, fewer when the search finds them: drop
 * the last row, then change one slot at a time, keeping a change that leaves no more pairs missing
 * and, less and less often as the search goes on, one that leaves more (simulated annealing), until
 * nothing is missing. Stops at the cross of the two largest factors, which no array can go under.
 * Then every slot no pair needs goes back to the factor's first value.
 */
function withFewerRows(start: number[][], sizes: readonly number[], search = 0): number[][] {
  const n = sizes.length;
  const bound = n < 2 ? start.length : sizes[0]! * sizes[1]!;
  const random = seeded(n * 7919 + start.length + search * 104729);
  // The rows holding each pair of values, in one flat table: base[i][j] + a * sizes[j] + b, for i < j.
  const base: number[][] = [];
  let cells = 0;
  for (let i = 0; i < n; i++) {
    base.push([]);
    for (let j = 0; j < n; j++) {
      base[i]!.push(cells);
      if (j > i) cells += sizes[i]! * sizes[j]!;
    }
  }
  const cellOf = (c: number, v: number, j: number, w: number): number =>
    c < j ? base[c]![j]! + v * sizes[j]! + w : base[j]![c]! + w * sizes[c]! + v;
  let best = start;
  while (best.length > bound) {
    const rows = best.slice(0, -1).map((row) => [...row]);
    const count = new Int32Array(cells);
    for (const row of rows)
      for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) count[cellOf(i, row[i]!, j, row[j]!)]!++;
    let missing = 0;
    for (const x of count) if (x === 0) missing++;
    /** Moves slot c of `row` from its value to v; returns how many more pairs are missing. */
    const move = (row: number[], c: number, v: number): number => {
      const old = row[c]!;
      let change = 0;
      for (let j = 0; j < n; j++) {
        if (j === c) continue;
        const from = cellOf(c, old, j, row[j]!);
        if (--count[from]! === 0) change++;
        const to = cellOf(c, v, j, row[j]!);
        if (count[to]!++ === 0) change--;
      }
      row[c] = v;
      return change;
    };
    for (let m = 0; m < SEARCH_MOVES && missing > 0; m++) {
      const row = rows[Math.floor(random() * rows.length)]!;
      const c = Math.floor(random() * n);
      if (sizes[c]! < 2) continue;
      const old = row[c]!;
      const change = move(row, c, (old + 1 + Math.floor(random() * (sizes[c]! - 1))) % sizes[c]!);
      const temperature = Math.max(0.05, 1 - m / (0.8 * SEARCH_MOVES));
      if (change <= 0 || random() < Math.exp(-change / temperature)) missing += change;
      else move(row, c, old);
    }
    if (missing > 0) break;
    // Slots no pair needs take the first value: a dialect then changes only what some pair needs.
    for (const row of rows)
      for (let c = 0; c < n; c++) {
        const old = row[c]!;
        if (old !== 0 && move(row, c, 0) > 0) move(row, c, old);
      }
    best = rows;
  }
  return best;
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

/**
 * The rows given, or fewer covering every pair: row counts from the bound (the two largest factors
 * crossed) up, each tried by coverInRows, the first found kept. IPOG and its row-removal search stall
 * above the bound where many factors have three values or more (the dialect fields: 19 rows, against
 * a bound of 16 that coverInRows reaches). A row count coverInRows cannot reach costs every seed
 * (about 0.1 CPU-s each), and it tries none above 20 rows: the rows given stand there.
 */
export function fewestRows(factors: readonly Factor[], rows: readonly Row[], seeds = STAGED_SEEDS): Row[] {
  const sizes = factors.map((f) => f.values.length).sort((a, b) => b - a);
  const bound = factors.length < 2 ? rows.length : sizes[0]! * sizes[1]!;
  for (let count = bound; count < rows.length; count++) {
    const found = coverInRows(factors, count, seeds);
    if (found) return found;
  }
  return [...rows];
}

/** Seeds coverInRows tries at one row count (the dialect fields' 16 rows come at the 193rd, in about 20 CPU-s). */
const STAGED_SEEDS = 400;
/** Moves of the first stage's annealing, per seed. */
const STAGED_MOVES = 300_000;
/** Greedy picks of the two-valued columns per seed. */
const COLUMN_TRIES = 200;

/**
 * A covering array of exactly `count` rows, or undefined when `seeds` searches find none. Two stages,
 * each seed a search of its own (deterministic):
 *  1. the factors of three values or more, in `count` rows by simulated annealing over cells (a move
 *     puts one value of a missing pair in a random row), the two largest crossed whole and left alone
 *     when `count` is their product (Cohen, Colbourn and Ling's annealing for covering arrays);
 *  2. each two-valued factor as a column of 0s and 1s, chosen among the columns that split every
 *     value of the first stage's factors (both its values meet each of theirs), each meeting every
 *     column chosen before it in all four combinations: a random greedy pick, COLUMN_TRIES times.
 * One-valued factors take their value. Then every slot no pair needs takes the factor's first value.
 */
export function coverInRows(factors: readonly Factor[], count: number, seeds = STAGED_SEEDS): Row[] | undefined {
  // The columns of stage 2 are bit masks over the rows, one of 2^(count-1) (the last row's bit is 0).
  if (count > 20 || count < 2) return undefined;
  const big = factors.map((_, i) => i).filter((i) => factors[i]!.values.length > 2);
  const two = factors.map((_, i) => i).filter((i) => factors[i]!.values.length === 2);
  const sizes = big.map((i) => factors[i]!.values.length);
  for (let seed = 1; seed <= seeds; seed++) {
    const random = seeded(seed);
    const first = annealLargeFactors(sizes, count, random);
    if (!first) continue;
    const columns = twoValuedColumns(first, sizes, count, two.length, random);
    if (!columns) continue;
    const rows: number[][] = Array.from({ length: count }, () => factors.map(() => 0));
    big.forEach((f, k) => {
      for (let r = 0; r < count; r++) rows[r]![f] = first[r]![k]!;
    });
    two.forEach((f, k) => {
      for (let r = 0; r < count; r++) rows[r]![f] = (columns[k]! >> r) & 1;
    });
    const cover = rows.map((row) => Object.fromEntries(factors.map((f, i) => [f.name, f.values[row[i]!]!])));
    if (uncoveredPairs(factors, cover).length) continue;
    return toFirstValues(factors, cover);
  }
  return undefined;
}

/** Stage 1 of coverInRows: `count` rows of value indexes covering every pair of these factors, or undefined. */
function annealLargeFactors(sizes: readonly number[], count: number, random: () => number): number[][] | undefined {
  const n = sizes.length;
  const pick = (k: number): number => Math.floor(random() * k);
  const rows = Array.from({ length: count }, () => sizes.map((size) => pick(size)));
  if (n < 2) return rows.map((row, r) => row.map((_, c) => r % sizes[c]!));
  const order = sizes.map((_, i) => i).sort((a, b) => sizes[b]! - sizes[a]! || a - b);
  const [x, y] = [order[0]!, order[1]!];
  const crossed = count === sizes[x]! * sizes[y]!;
  if (crossed)
    rows.forEach((row, r) => {
      row[x] = Math.floor(r / sizes[y]!);
      row[y] = r % sizes[y]!;
    });
  // Every pair (i < j, a, b) as one cell of a flat table of how many rows hold it.
  const base: number[][] = sizes.map(() => sizes.map(() => 0));
  const pairs: [number, number, number, number][] = [];
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      base[i]![j] = pairs.length;
      for (let a = 0; a < sizes[i]!; a++) for (let b = 0; b < sizes[j]!; b++) pairs.push([i, j, a, b]);
    }
  const cellOf = (c: number, v: number, j: number, w: number): number =>
    c < j ? base[c]![j]! + v * sizes[j]! + w : base[j]![c]! + w * sizes[c]! + v;
  const held = new Int32Array(pairs.length);
  for (const row of rows)
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) held[cellOf(i, row[i]!, j, row[j]!)]!++;
  // The missing pairs as a list with positions, so that a random one is picked in constant time.
  const missing: number[] = [];
  const at = new Int32Array(pairs.length).fill(-1);
  const lose = (p: number): void => {
    at[p] = missing.length;
    missing.push(p);
  };
  const gain = (p: number): void => {
    const last = missing.pop()!;
    if (last !== p) {
      missing[at[p]!] = last;
      at[last] = at[p]!;
    }
    at[p] = -1;
  };
  held.forEach((h, p) => {
    if (h === 0) lose(p);
  });
  const change = (row: number[], c: number, v: number, apply: boolean): number => {
    let delta = 0;
    for (let j = 0; j < n; j++) {
      if (j === c) continue;
      const from = cellOf(c, row[c]!, j, row[j]!);
      const to = cellOf(c, v, j, row[j]!);
      if (!apply) {
        if (held[from] === 1) delta++;
        if (held[to] === 0) delta--;
        continue;
      }
      if (--held[from]! === 0) lose(from);
      if (held[to]!++ === 0) gain(to);
    }
    if (apply) row[c] = v;
    return delta;
  };
  const fixed = (c: number): boolean => crossed && (c === x || c === y);
  // The temperature falls from 1 to 0.05 over the moves.
  const cooling = 0.05 ** (1 / STAGED_MOVES);
  for (let m = 0, temperature = 1; m < STAGED_MOVES; m++, temperature *= cooling) {
    if (!missing.length) return rows;
    const [i, j, a, b] = pairs[missing[pick(missing.length)]!]!;
    let [c, v] = random() < 0.5 ? [i, a] : [j, b];
    if (fixed(c)) [c, v] = c === i ? [j, b] : [i, a];
    if (fixed(c)) continue;
    const row = rows[pick(count)]!;
    if (row[c] === v) continue;
    const delta = change(row, c, v, false);
    if (delta <= 0 || random() < Math.exp(-delta / temperature)) change(row, c, v, true);
  }
  return missing.length ? undefined : rows;
}

/** Stage 2 of coverInRows: `wanted` columns (bit r = row r's value index), or undefined. */
function twoValuedColumns(
  first: readonly (readonly number[])[],
  sizes: readonly number[],
  count: number,
  wanted: number,
  random: () => number,
): number[] | undefined {
  if (!wanted) return [];
  const full = 2 ** count - 1;
  // The rows holding each value of each first-stage factor: a column must put both its values in each.
  const classes: number[] = [];
  sizes.forEach((size, c) => {
    for (let v = 0; v < size; v++) classes.push(first.reduce((m, row, r) => (row[c] === v ? m | (1 << r) : m), 0));
  });
  const candidates: number[] = [];
  for (let u = 1; u < 2 ** (count - 1); u++)
    if (classes.every((m) => (u & m) !== 0 && (u & m) !== m)) candidates.push(u);
  const meets = (u: number, w: number): boolean =>
    (u & w) !== 0 && (u & ~w & full) !== 0 && (~u & w & full) !== 0 && (~u & ~w & full) !== 0;
  for (let t = 0; t < COLUMN_TRIES; t++) {
    let pool = candidates;
    const chosen: number[] = [];
    while (chosen.length < wanted && pool.length) {
      const u = pool[Math.floor(random() * pool.length)]!;
      chosen.push(u);
      pool = pool.filter((w) => w !== u && meets(u, w));
    }
    if (chosen.length === wanted) return chosen;
  }
  return undefined;
}

/** Every slot that no pair needs takes the factor's first value, row by row, factor by factor. */
function toFirstValues(factors: readonly Factor[], rows: Row[]): Row[] {
  const out = rows.map((row) => ({ ...row }));
  const holds = (f: Factor, a: Level, g: Factor, b: Level): number =>
    out.reduce((n, r) => (r[f.name] === a && r[g.name] === b ? n + 1 : n), 0);
  for (const row of out)
    for (const f of factors) {
      const value = row[f.name]!;
      const firstValue = f.values[0]!;
      if (value === firstValue) continue;
      // The slot can change when every pair it holds is held by another row too.
      if (factors.every((g) => g === f || holds(f, value, g, row[g.name]!) > 1)) row[f.name] = firstValue;
    }
  return out;
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

/**
 * The fewest rows that together hold every value of every factor (a 1-wise cover drawn from `rows`),
 * as row indexes in ascending order: the first such set in row order, searched among the sets smaller
 * than a greedy pick while they are few (an 18-row cover has 18,564 sets of 6), else the greedy pick
 * (each pick the row holding the most values not yet held, the first on a tie). Throws when `rows`
 * leave a value out.
 */
export function valueCover(factors: readonly Factor[], rows: readonly Row[]): number[] {
  const { values, held, all } = valuesHeld(factors, rows);
  const greedy = greedyValueCover(values, held, all);
  // No set can be smaller than the most values one factor has.
  const least = Math.max(1, ...factors.map((f) => f.values.length));
  for (let k = least; k < greedy.length && combinations(rows.length, k) <= MAX_SETS; k++) {
    const found = firstCoveringSet(held, all, k);
    if (found) return found;
  }
  return greedy;
}

/**
 * The rows split into as many groups as can each hold every value of every factor (each a value
 * cover, as valueCover's), every row in one group: the dialect matrix runs each test of a
 * table-driven file on one group of dialects, not on all of them (scripts/dialect-matrix.ts
 * --split-rows). One group, all the rows, when no split into two exists. Lists of row indices, each
 * in row order, the groups ordered by their first row.
 */
export function valueCoverPartition(factors: readonly Factor[], rows: readonly Row[]): number[][] {
  const { values, held, all } = valuesHeld(factors, rows);
  // No more groups than the rows holding its rarest value.
  const rarest = Math.min(...values.map((_, i) => held.filter((m) => (m >> BigInt(i)) & 1n).length));
  for (let k = rarest; k >= 2; k--) {
    const found = coveringPartition(held, all, k);
    if (found) return found;
  }
  return [rows.map((_, i) => i)];
}

/** How many row placements coveringPartition tries for one number of groups, at most. */
const MAX_PLACEMENTS = 2_000_000;

/**
 * Each row placed in one of `k` groups, in row order, a row opening a new group only after the groups
 * before it (no split is tried twice under other group numbers); a branch ends where the rows left
 * cannot give every group what it lacks.
 */
function coveringPartition(held: readonly bigint[], all: bigint, k: number): number[][] | undefined {
  const bits = Array.from({ length: popCount(all) }, (_, i) => 1n << BigInt(i));
  // How many rows from i on hold each value.
  const left = held.map((_, i) => bits.map((b) => held.slice(i).filter((m) => m & b).length));
  const have = Array<bigint>(k).fill(0n);
  const groups: number[][] = Array.from({ length: k }, () => []);
  let placements = 0;
  const place = (i: number): boolean => {
    if (i === held.length) return have.every((m) => m === all);
    if (++placements > MAX_PLACEMENTS) return false;
    const reachable = bits.every((b, v) => have.filter((m) => !(m & b)).length <= left[i]![v]!);
    if (!reachable) return false;
    const opened = groups.filter((g) => g.length).length;
    for (let g = 0; g < Math.min(k, opened + 1); g++) {
      const before = have[g]!;
      groups[g]!.push(i);
      have[g] = before | held[i]!;
      if (place(i + 1)) return true;
      groups[g]!.pop();
      have[g] = before;
    }
    return false;
  };
  return place(0) ? groups : undefined;
}

/** Every value of every factor ("field=value"), the values each row holds as bits, and all the bits. */
function valuesHeld(
  factors: readonly Factor[],
  rows: readonly Row[],
): { values: string[]; held: bigint[]; all: bigint } {
  const values = factors.flatMap((f) => f.values.map((v) => `${f.name}=${String(v)}`));
  const bit = new Map(values.map((v, i) => [v, 1n << BigInt(i)]));
  const held = rows.map((row) => factors.reduce((m, f) => m | (bit.get(`${f.name}=${String(row[f.name])}`) ?? 0n), 0n));
  return { values, held, all: (1n << BigInt(values.length)) - 1n };
}

/** How many sets of rows valueCover tries at one size, at most. */
const MAX_SETS = 2_000_000;

function greedyValueCover(values: readonly string[], held: readonly bigint[], all: bigint): number[] {
  let have = 0n;
  const chosen: number[] = [];
  while (have !== all) {
    let best = -1;
    let gain = 0;
    held.forEach((m, i) => {
      const g = popCount(m & ~have);
      if (g > gain) [best, gain] = [i, g];
    });
    if (best < 0) throw new Error(`no row holds ${values[bitIndex(all & ~have)]}`);
    chosen.push(best);
    have |= held[best]!;
  }
  return chosen.sort((a, b) => a - b);
}

/** The first set of `k` rows in row order whose values together are `all`. */
function firstCoveringSet(held: readonly bigint[], all: bigint, k: number): number[] | undefined {
  const pick: number[] = [];
  const walk = (from: number, have: bigint): boolean => {
    if (pick.length === k) return have === all;
    for (let i = from; i <= held.length - (k - pick.length); i++) {
      pick.push(i);
      if (walk(i + 1, have | held[i]!)) return true;
      pick.pop();
    }
    return false;
  };
  return walk(0, 0n) ? pick : undefined;
}

function combinations(n: number, k: number): number {
  let c = 1;
  for (let i = 0; i < k; i++) c = (c * (n - i)) / (i + 1);
  return c;
}

function popCount(m: bigint): number {
  let n = 0;
  for (let x = m; x; x &= x - 1n) n++;
  return n;
}

function bitIndex(m: bigint): number {
  let i = 0;
  while (!((m >> BigInt(i)) & 1n)) i++;
  return i;
}
