/**
 * Picks items in proportion to their weights from one uniform draw in [0, 1). The cumulative
 * table is built once, so a pick is a short scan with no allocation.
 */
export function weightedPicker<T>(items: readonly T[], weightOf: (item: T) => number): (draw: number) => T {
  if (items.length === 0) throw new Error("weightedPicker needs at least one item");
  const cumulative = new Float64Array(items.length);
  let total = 0;
  items.forEach((item, i) => {
    total += weightOf(item);
    cumulative[i] = total;
  });
  const last = items.length - 1;
  return (draw) => {
    const target = draw * total;
    let i = 0;
    while (i < last && cumulative[i]! <= target) i++;
    return items[i]!;
  };
}
