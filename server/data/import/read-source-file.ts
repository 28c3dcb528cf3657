import { toContractRecord } from "./contract-gate.ts";
import { ReasonTally } from "./reason-tally.ts";
import type { SourceFile } from "../readers/source-file.ts";
import type { Observation } from "../../store/sources-repo.ts";
import {
  RowProblem,
  type AsOfFrom,
  type FileInspection,
  type Observed,
  type SourceAdapter,
  type SourceRecord,
} from "../sources/source-adapter.ts";

export interface ReadFile {
  /** What the file says of each license (a roster: one each; change reports: one per change). */
  observations: Observation[];
  rowsRead: number;
  skips: ReasonTally;
  repairs: ReasonTally;
  asOf: string | null;
  asOfFrom: AsOfFrom;
  coverage: string;
}

/**
 * Reads one file through its adapter: its observations, what was skipped and mended and why, and
 * its as-of date: the date the file states, else the one given at import, else the newest date of
 * its records that is never later than the export (an original issue date), never later than today.
 */
export async function readSourceFile(
  adapter: SourceAdapter,
  file: SourceFile,
  inspection: FileInspection,
  options: { asOf?: string; today: string; onRow?: () => void },
): Promise<ReadFile> {
  const skips = new ReasonTally();
  const repairs = new ReasonTally();
  const observations: Observation[] = [];
  // A roster lists a license once: a second row with the same facts is a repeat; with others, a conflict.
  const listed = new Map<string, unknown>();
  let rowsRead = 0;
  for await (const outcome of adapter.read(file, inspection)) {
    const rows = "skip" in outcome ? 1 : (outcome.rows ?? 1);
    rowsRead += rows;
    for (let i = 0; i < rows; i++) options.onRow?.();
    if ("skip" in outcome) {
      skips.add(outcome.at, outcome.skip);
      continue;
    }
    const facts = outcome.facts;
    if (adapter.kind === "roster") {
      try {
        // Checked as each row is read, so a refusal names its row.
        toContractRecord(facts as SourceRecord);
      } catch (error) {
        if (!(error instanceof RowProblem)) throw error;
        skips.add(outcome.at, error.message);
        continue;
      }
      const before = listed.get(outcome.license);
      if (before !== undefined) {
        skips.add(
          outcome.at,
          JSON.stringify(before) === JSON.stringify(facts)
            ? "repeated row (the same license with the same facts): counted once"
            : "the license number is on an earlier row with other facts: the first row is kept",
        );
        continue;
      }
      listed.set(outcome.license, facts);
    }
    for (const repair of outcome.repairs ?? []) {
      if (typeof repair === "string") repairs.add(outcome.at, repair);
      else repairs.add(repair.at, repair.reason);
    }
    observations.push({
      license: outcome.license,
      asOf: outcome.asOf ?? null,
      facts,
      line: outcome.at.line,
    });
  }

  let folded: SourceRecord[] | undefined;
  const records = () => (folded ??= foldEach(adapter, observations));
  const days = observations
    .map((o) => o.asOf)
    .filter((d) => d !== null)
    .sort();
  // A file whose rows each state their day (a daily report's) is as of the last of them.
  const stated = inspection.asOf ?? (days.length === observations.length ? days.at(-1) : undefined);
  const statedFrom = (inspection.asOf && inspection.asOfFrom) || "stated in the file";
  const newest =
    stated || options.asOf
      ? null
      : (records()
          .flatMap((record) => inspection.datesBeforeExport(record))
          .filter((d) => d !== null && d <= options.today)
          .sort()
          .at(-1) ?? null);
  const [asOf, asOfFrom]: [string | null, AsOfFrom] = stated
    ? [stated, statedFrom]
    : options.asOf
      ? [options.asOf, "given at import"]
      : newest !== null
        ? [newest, "the newest date in the file"]
        : [null, "not known"];
  for (const o of observations) o.asOf ??= asOf;
  return {
    observations,
    rowsRead,
    skips,
    repairs,
    asOf,
    asOfFrom,
    coverage: inspection.coverage({ records, first: days[0] ?? null, last: days.at(-1) ?? null }),
  };
}

/** Each license of a file as the file alone makes it (oldest observation first). */
function foldEach(adapter: SourceAdapter, observations: readonly Observation[]): SourceRecord[] {
  const byLicense = new Map<string, Observed[]>();
  for (const o of observations) {
    let list = byLicense.get(o.license);
    if (!list) byLicense.set(o.license, (list = []));
    list.push(o);
  }
  return [...byLicense.values()].map((list) => adapter.fold(list));
}
