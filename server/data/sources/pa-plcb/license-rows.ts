import type { RowRef, SourceRecord } from "../source-adapter.ts";

/** A row of the PLCB's list with a license number: the license as the row has it, and the PLCB's id of the row (LID). */
export interface NumberedRow {
  at: RowRef;
  value: { record: SourceRecord; recordId: number };
}

export const LICENSE_ROW_SKIPS = {
  pendingTransfer:
    "a pending application (a transfer) for a license number another row holds: the holder's row is kept",
  otherPremises:
    "the license number is on another PLCB record (another premises of the license): its first record (lowest LID) is kept",
  olderIssue: "the same PLCB record (LID) again with an older last issue date: the newest issue is kept",
  repeated: "repeated row (the same license with the same facts): counted once",
} as const;

/**
 * A license number on several rows is one license, and the list's word on it is one row: the
 * license as its holder has it rather than an application to take it over (a Pending row beside an
 * Active or Safekeeping one: the license is transferred with its number); of a license's several
 * premises (a brewery's second site, an airport concession's two counters), the PLCB's first
 * record of it; of one record listed again, its newest issue. Every other row, with why.
 */
export function rowsPassedOver<R extends NumberedRow>(rows: readonly R[]): Map<R, string> {
  const byLicense = new Map<string, R[]>();
  for (const row of rows) {
    const same = byLicense.get(row.value.record.license);
    if (same) same.push(row);
    else byLicense.set(row.value.record.license, [row]);
  }
  const passedOver = new Map<R, string>();
  for (const same of byLicense.values()) {
    if (same.length === 1) continue;
    const [kept, ...others] = [...same].sort(preferred);
    for (const other of others) passedOver.set(other, whyNot(other, kept!));
  }
  return passedOver;
}

const isPending = (row: NumberedRow) => row.value.record.status === "pending";

/** The row that better stands for the license first; file order breaks a tie. */
function preferred(a: NumberedRow, b: NumberedRow): number {
  if (isPending(a) !== isPending(b)) return isPending(a) ? 1 : -1;
  if (a.value.recordId !== b.value.recordId) return a.value.recordId - b.value.recordId;
  const [issuedA, issuedB] = [a.value.record.dates.issued_latest ?? "", b.value.record.dates.issued_latest ?? ""];
  if (issuedA !== issuedB) return issuedA > issuedB ? -1 : 1;
  return a.at.line - b.at.line;
}

function whyNot(row: NumberedRow, kept: NumberedRow): string {
  if (isPending(row) && !isPending(kept)) return LICENSE_ROW_SKIPS.pendingTransfer;
  if (row.value.recordId !== kept.value.recordId) return LICENSE_ROW_SKIPS.otherPremises;
  return JSON.stringify(row.value.record) === JSON.stringify(kept.value.record)
    ? LICENSE_ROW_SKIPS.repeated
    : LICENSE_ROW_SKIPS.olderIssue;
}
