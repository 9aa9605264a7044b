/** A named selection of a case table: the rows it names, in its order, each known to the table. */
export function casesNamed<T extends { name: string }>(
  table: readonly T[],
  names: readonly string[],
  what: string,
): T[] {
  return names.map((name) => {
    const found = table.find((c) => c.name === name);
    if (!found) throw new Error(`${what} "${name}" is not in the catalogue`);
    return found;
  });
}
