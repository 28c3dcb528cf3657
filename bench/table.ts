/** A Markdown table, columns padded so it also reads well in a terminal. */
export function markdownTable(header: string[], rows: (string | number)[][]): string {
  const cells = [header, ...rows.map((row) => row.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  const line = (row: string[]) => `| ${row.map((cell, i) => cell.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(cells[0]!), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...cells.slice(1).map(line)].join(
    "\n",
  );
}

export const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(1));
export const verdict = (ok: boolean) => (ok ? "met" : "**missed**");
export const pct = (share: number) => `${(share * 100).toFixed(0)}%`;
