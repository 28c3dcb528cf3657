import { LicenseSchema } from "../../../src/contract/license.ts";
import type { LicenseRecord } from "../../store/license-record.ts";
import { formatTimestamp } from "../../store/timestamp.ts";
import { RowProblem, type SourceRecord } from "../sources/source-adapter.ts";

// The store stamps the real time; any well-formed one lets the rest of the record be checked here.
const ANY_TIME = formatTimestamp(new Date(0));

/**
 * A source record as the store takes it, or a RowProblem saying why the contract refuses it, so
 * that one bad record is a skip rather than the end of the import.
 */
export function toContractRecord(source: SourceRecord): LicenseRecord {
  const record = withDatesKeyed(source);
  const checked = LicenseSchema.safeParse({ object: "license", ...record, updated_at: ANY_TIME });
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new RowProblem(`does not fit the contract: ${issue?.path.join(".")} ${issue?.message}`);
  }
  return record;
}

/** The record with its dates under its state's key, as the contract has them; for records already checked. */
export function withDatesKeyed(source: SourceRecord): LicenseRecord {
  return { ...source, dates: { [source.state]: source.dates } };
}
