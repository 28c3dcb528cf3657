import type { HistoryChange } from "../../../src/contract/envelopes.ts";
import type { LicenseDates } from "../../../src/contract/license.ts";
import type { LicenseRecord } from "../../store/license-record.ts";
import type { SourceFile } from "../readers/source-file.ts";

/** Where a row came from: a file (or a member of an archive) and the line or sheet row it starts on. */
export interface RowRef {
  file: string;
  line: number;
}

/**
 * A license as a source gives it. Shaped like the contract's record, except that a date the
 * source does not give is null: whether the contract accepts that is decided in one place,
 * contract-gate.ts, not by each adapter.
 */
export type SourceRecord = Omit<LicenseRecord, "dates"> & {
  dates: { [K in keyof LicenseDates]: LicenseDates[K] | null };
  /**
   * Fields the source has no column for at all (New York's 2019 statewide extract has no address):
   * written empty, they say nothing. Another source's word on them stands in the merge, and a
   * history sees no change in them. Never served: the merge drops it.
   */
  unstated?: readonly UnstatedField[];
};

/** The fields a source may leave out altogether, as `SourceRecord.unstated` names them. */
export type UnstatedField = "address" | "type" | "description";

/**
 * What became of one source row: what it says of a license (its facts, in the adapter's own shape:
 * a SourceRecord for a roster, a status change for a change report), or a skip and why. `repairs`
 * says what was mended in it to keep it (a split ZIP joined, say), one reason each. `rows`: how many
 * of the file's rows it was made from, where an agency lists a license on several (one per licensee);
 * a repair of one of those rows names it (`at`), else it is the outcome's.
 */
export type RowOutcome =
  | {
      at: RowRef;
      license: string;
      facts: unknown;
      asOf?: string;
      repairs?: readonly (string | { reason: string; at: RowRef })[];
      rows?: number;
    }
  | { at: RowRef; skip: string };

/** One source's word on one license, as an adapter's fold reads it back. */
export interface Observed {
  facts: unknown;
  /** The date it was true on: the observation's own (a daily report's day), else its file's. */
  asOf: string | null;
}

/**
 * How a file's as-of date is known; shown with the date wherever it is. A list dated by its month
 * alone is as of the month's first day, and says so. "its publisher states": the date comes from
 * outside the file (its publisher's note on that exact file, Georgia's), the file holding none.
 */
export type AsOfFrom =
  | "stated in the file"
  | "the first day of the month the file states"
  | "the first day of the month its publisher states"
  | "the file's name"
  | "given at import"
  | "the newest date in the file"
  /** A file that states no date, known from where it was published: its data is no newer. */
  | "the day the file was published"
  | "not known";

/** What a look at a file's head found: which of the source's layouts it is, what it is, and any date it states. */
export interface FileInspection {
  layout: string;
  /** The dataset's title, as the agency calls it. */
  title: string;
  /** Files of one family are one series over time: a newer roster of a family replaces an older one. */
  family: string;
  /** The date the file states (in a title row, its sheet's name, its own name), if any. */
  asOf: string | null;
  /** A roster cut from a fuller list by its publisher: a license it leaves out is not thereby gone (NewSource.partial). */
  partial?: boolean;
  /** How `asOf` is known, when it is not simply "stated in the file". */
  asOfFrom?: AsOfFrom;
  /**
   * What the file's records cover, in plain words ("New York City on-premises liquor licenses only").
   * `records()` makes each license as the file alone has it: only when asked, as a fold costs.
   */
  coverage(file: { records(): readonly SourceRecord[]; first: string | null; last: string | null }): string;
  /**
   * Dates of a record that are never later than the day its file was made (an original issue date,
   * an application's received date; not an expiry or an effective date, which can lie ahead): the
   * newest of them stands for the file's as-of date when the file states none.
   */
  datesBeforeExport(record: SourceRecord): (string | null)[];
  /**
   * Set when inspect() kept the file open (`keepOpen`): read() given this inspection goes on from
   * where the header was found. Whoever asked for it calls close() if the file is not read after all.
   */
  close?: () => Promise<void>;
}

/** One agency's export format(s): how its files become what they say of each license. */
export interface SourceAdapter {
  /** The `--source` name, e.g. `ny-sla`. */
  name: string;
  /** Lower-case state code the records belong to. */
  state: string;
  /** The agency's name as people say it. */
  agency: string;
  /** For --help: the agency and the files it accepts. */
  description: string;
  /**
   * `roster`: each file lists every license it covers, so a license missing from the family's
   * newest file is no longer listed. `changes`: each file reports changes only (California's daily
   * reports): a license it does not mention is as it was.
   */
  kind: "roster" | "changes";
  /**
   * Checks a file's layout before anything is written; throws SourceFileError naming the file.
   * `keepOpen`: the adapter may keep the file open where the header was found, where that spares
   * read() parsing the file's head again (a spreadsheet's shared strings: a fifth of its reading);
   * the inspection then has close().
   */
  inspect(file: SourceFile, options?: { keepOpen?: boolean }): Promise<FileInspection>;
  /**
   * What each row of the file says, and every row that could not be used; from the inspection's
   * open file when it kept one (it is then the same file, with the same byte counter).
   */
  read(file: SourceFile, inspection?: FileInspection): AsyncIterable<RowOutcome>;
  /** A license as one family's observations of it make it, oldest first. */
  fold(observations: readonly Observed[]): SourceRecord;
  /**
   * Rosters: the status a file gives a license when it states none (the District's lists before
   * 2012 name licensees without one). A change from or to it is not a change of status.
   */
  unstatedStatus?: string;
  /**
   * Change reports (a `changes` source must give it): which of a license's reports, oldest first,
   * changed it and how. A report that repeats a change already reported changes nothing.
   */
  history?(observations: readonly Observed[]): ReportedChange[];
}

/** What one report of a license changed: `index` is its place among the observations given. */
export interface ReportedChange {
  index: number;
  changes: HistoryChange[];
}

/** A roster's fold: the newest observation's facts are the license. */
export function newestFacts(observations: readonly Observed[]): SourceRecord {
  return observations.at(-1)!.facts as SourceRecord;
}

/** A row that cannot become a record; the message is the skip reason the summary counts. */
export class RowProblem extends Error {
  constructor(reason: string) {
    // An expected outcome, thrown for thousands of rows: skip capturing a stack nobody reads.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(reason);
    Error.stackTraceLimit = limit;
  }
}

/** A whole file that cannot be imported: unreadable, of an unknown layout, or without one usable row. */
export class SourceFileError extends Error {}

/** A file that is not in any layout of the source asked for: another source's, or none. */
export class UnknownLayoutError extends SourceFileError {}
