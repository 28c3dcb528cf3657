import { parseOwnerField } from "./owner-field.ts";
import { licenseNumber } from "../../import/fields.ts";
import { readDate } from "../../readers/parse-date.ts";
import { RowProblem } from "../source-adapter.ts";
import { tableLayout } from "../../readers/table.ts";

/** One row of a CA ABC daily status-change report: one license type of one license changing status. */
export interface StatusChange {
  license: string;
  /** Raw status words, e.g. PEND and ACTIVE for "PEND ACTIVE". */
  from: string;
  to: string;
  /** The ABC license type code from "Type| Dup" (41 of "41 | 0"). */
  typeCode: string;
  originalIssue: string | null;
  expires: string | null;
  dba: string | null;
  owner: string;
  postalState: string | null;
  street: string;
  city: string;
  countyCode: string;
  zip: string;
}

export const statusChangeReport = tableLayout({
  name: "CA ABC daily status changes report",
  columns: {
    license: "License Number",
    change: "Status Changed From/To",
    typeDup: "Type| Dup",
    originalIssue: "Original Issue Date",
    expires: "Expir. Date",
    ownerAndPremises: "Primary Owner and Premises Addr.",
    street: "Prem Street",
    city: "City",
    county: "County",
    zip: "Zip Code",
  },
  toValue(row): StatusChange {
    const license = licenseNumber(row.text("license"));
    const change = row.text("change");
    if (change === "") throw new RowProblem("no status change");
    const words = change.split(/\s+/);
    if (words.length !== 2) throw new RowProblem("unreadable status change (not two status words)");
    return {
      license,
      from: words[0]!,
      to: words[1]!,
      typeCode: row.text("typeDup").split("|")[0]!.trim(),
      originalIssue: readDate(row.value("originalIssue"), "original issue date", ["us", "iso"]),
      expires: readDate(row.value("expires"), "expiration date", ["us", "iso"]),
      ...parseOwnerField(row.text("ownerAndPremises"), row.text("street")),
      street: row.text("street"),
      city: row.text("city"),
      countyCode: row.text("county"),
      zip: row.text("zip"),
    };
  },
});
