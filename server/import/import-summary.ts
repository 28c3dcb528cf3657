import type { ImportResult } from "./import-source.ts";
import type { RowRef } from "./row-outcome.ts";

const count = (n: number) => n.toLocaleString("en-US");

const AS_OF_FROM: Record<ImportResult["asOfFrom"], string> = {
  file: "stated in the file",
  option: "from --as-of",
  "import date": "the import date: the files do not state one",
};

/** What an import did, for a person: counts, each skip reason with where its first rows were, speed. */
export function formatSummary(result: ImportResult): string {
  const lines = [`${result.source}: replaced the ${result.state.toUpperCase()} data`];
  for (const file of result.files) lines.push(`  ${file.path}  (${file.layout})`);
  lines.push(`  rows read   ${count(result.rowsRead)}`);
  if (result.licenses + result.rowsSkipped !== result.rowsRead) {
    lines.push(`  licenses    ${count(result.licenses)}  (the rows folded by license number)`);
  }
  lines.push(`  imported    ${count(result.imported)}`);
  lines.push(`  skipped     ${count(result.skips.total)}`);
  for (const skip of result.skips.list()) {
    lines.push(`    ${count(skip.count).padStart(7)}  ${skip.reason}; first at ${places(skip.examples)}`);
  }
  lines.push(`  as of       ${result.asOf}  (${AS_OF_FROM[result.asOfFrom]})`);
  const rate = result.rowSeconds > 0 ? Math.round(result.rowsRead / result.rowSeconds) : 0;
  const indexing = result.seconds - result.rowSeconds;
  lines.push(
    `  took        ${result.seconds.toFixed(2)} s: rows read, checked and written in ${result.rowSeconds.toFixed(2)} s ` +
      `(${count(rate)} rows/s), search index built in ${indexing.toFixed(2)} s`,
  );
  return lines.join("\n");
}

/** `nyc_bars.csv:124, :4528`: a file is named once for a run of places in it. */
function places(refs: RowRef[]): string {
  let last = "";
  return refs
    .map((ref) => {
      const shown = ref.file === last ? `:${ref.line}` : `${ref.file}:${ref.line}`;
      last = ref.file;
      return shown;
    })
    .join(", ");
}
