import type { StateCoverage } from "../../../src/contract/envelopes.ts";
import type { FileReport, ImportResult } from "./import-source.ts";
import type { ReasonTally } from "./reason-tally.ts";
import type { RowRef } from "../sources/source-adapter.ts";

const count = (n: number) => n.toLocaleString("en-US");

/** What an import did, for a person: per file its date, coverage, rows, what was mended and skipped; speed. */
export function formatSummary(result: ImportResult): string {
  const lines = [`${result.source}: ${result.agency}, into ${result.state.toUpperCase()}`];
  for (const file of result.files) lines.push(...fileLines(file));
  if (result.refused.total) {
    lines.push(`  refused     ${count(result.refused.total)} licenses whose reports together do not fit the contract`);
    for (const r of result.refused.list()) {
      lines.push(`    ${count(r.count).padStart(7)}  ${r.reason}; first: ${r.examples.join(", ")}`);
    }
  }
  if (!result.rebuilt) {
    lines.push(`  records     ${count(result.records)} served, unchanged: every file was imported before`);
    return lines.join("\n");
  }
  if (result.dropped.count) {
    const more = result.dropped.count > result.dropped.examples.length ? ", …" : "";
    lines.push(
      `  dropped     ${count(result.dropped.count)} licenses ${result.state.toUpperCase()} served before are no longer served: ` +
        `${result.dropped.examples.join(", ")}${more}`,
    );
  }
  lines.push(
    `  records     ${count(result.records)} served for ${result.state.toUpperCase()} now, from all its sources`,
  );
  const rows = result.files.reduce((n, f) => n + f.rowsRead, 0);
  const rate = result.rowSeconds > 0 ? Math.round(rows / result.rowSeconds) : 0;
  lines.push(
    `  took        ${result.seconds.toFixed(2)} s: rows read, checked and stored in ${result.rowSeconds.toFixed(2)} s ` +
      `(${count(rate)} rows/s), records made and indexed in ${(result.seconds - result.rowSeconds).toFixed(2)} s`,
  );
  return lines.join("\n");
}

function fileLines(file: FileReport): string[] {
  const head = `  ${file.path}  (${file.layout}: ${file.title})`;
  if (file.alreadyLoadedAt)
    return [head, `    already imported ${file.alreadyLoadedAt} UTC (same SHA-256): not read again`];
  return [
    head,
    `    as of       ${file.asOf ?? "unknown"}  (${file.asOfFrom})`,
    `    covers      ${file.coverage}`,
    ...(file.archived ? [`    kept as     ${file.archived}`] : []),
    `    rows read   ${count(file.rowsRead)}`,
    `    written     ${count(file.licenses)} records${changes(file)}${servedNote(file)}`,
    ...tallyLines("repaired", file.repairs),
    ...tallyLines("skipped", file.skips),
  ];
}

function tallyLines(label: string, tally: ReasonTally): string[] {
  return [
    `    ${label.padEnd(11)} ${count(tally.total)}`,
    ...tally.list().map((r) => `      ${count(r.count).padStart(7)}  ${r.reason}; first at ${places(r.examples)}`),
  ];
}

/** Each state's records and the sources behind them: what an import leaves the service serving. */
export function formatCoverage(states: readonly StateCoverage[]): string {
  const rows = states.flatMap((s) =>
    s.sources.map((source, i) => [
      i === 0 ? s.state.toUpperCase() : "",
      i === 0 ? count(s.records) : "",
      count(source.records),
      source.as_of ?? "unknown",
      `${source.agency}: ${source.file ?? source.title}`,
      source.coverage,
    ]),
  );
  const header = ["state", "records", "from it", "as of", "source", "covers"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 1 || i === 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)].join("\n");
}

/** A change report's records are made of its changes. */
function changes(file: FileReport): string {
  return file.observations === file.licenses ? "" : ` from ${count(file.observations)} changes`;
}

/** How many of a file's records are served: the rest are a newer source's word, or no longer listed. */
function servedNote(file: FileReport): string {
  if (file.served === file.licenses) return "";
  const others = file.licenses - file.served;
  return `  (${count(file.served)} served; ${count(others)} are a newer source's word${file.served === 0 ? " or no longer listed" : ""})`;
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
