import { LicenseSchema } from "../../src/contract/license.ts";
import type { LicenseRecord } from "../store/license-record.ts";
import { formatTimestamp } from "../store/timestamp.ts";
import { RowProblem, type SourceRecord } from "./source-adapter.ts";

// The store stamps the real time; any well-formed one lets the rest of the record be checked here.
const ANY_TIME = formatTimestamp(new Date(0));

/**
 * A source record as the store takes it, or a RowProblem saying why the contract refuses it, so
 * that one bad record is a skip rather than the end of the import.
 */
export function toContractRecord(source: SourceRecord): LicenseRecord {
  const record = withDatesKeyed(source);
  if (surelyFits(source)) return record;
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

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const STATE_CODE = /^[a-z]{2}$/;
const POSTAL_STATE = /^[A-Z]{2}$/;

const isText = (value: unknown): value is string => typeof value === "string";
const isTextOrNull = (value: unknown) => value === null || typeof value === "string";
const isDateOrNull = (value: unknown) => value === null || (typeof value === "string" && ISO_DATE.test(value));
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Whether a record certainly fits LicenseSchema once its dates are keyed by its state (which
 * satisfies the schema's one-state-key rule): the schema's checks written out by hand. zod took
 * about 17 us a record, a fifth of a roster's import; this takes well under 1. It may say no
 * where zod says yes (zod then decides, and names the problem), never yes where zod says no:
 * contract-gate.test.ts puts every field of a record through wrong values to hold that, and fails
 * when the contract gains a field or a check this does not make.
 */
export function surelyFits(r: SourceRecord): boolean {
  const { address: a, dates: d, details: x } = r as Partial<SourceRecord>;
  return (
    isText(r.license) &&
    r.license.length >= 1 &&
    isText(r.business) &&
    isText(r.owner) &&
    isTextOrNull(r.phone) &&
    isText(r.state) &&
    STATE_CODE.test(r.state) &&
    isText(r.status) &&
    isObject(a) &&
    isText(a.line_1) &&
    isTextOrNull(a.line_2) &&
    isText(a.city) &&
    isText(a.county) &&
    isText(a.state) &&
    POSTAL_STATE.test(a.state) &&
    isText(a.zip) &&
    isObject(d) &&
    isDateOrNull(d.effective) &&
    isDateOrNull(d.expires) &&
    isDateOrNull(d.issued_original) &&
    isDateOrNull(d.issued_latest) &&
    isObject(x) &&
    isTextOrNull(x.class) &&
    isTextOrNull(x.description) &&
    isText(x.type)
  );
}
