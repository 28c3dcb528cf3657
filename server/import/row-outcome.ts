import type { LicenseDates } from "../../src/contract/license.ts";
import type { LicenseRecord } from "../store/license-record.ts";

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
};

/** What became of one source row: a record (standing for `rows` source rows, default 1), or a skip and why. */
export type RowOutcome = { at: RowRef; record: SourceRecord; rows?: number } | { at: RowRef; skip: string };

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
