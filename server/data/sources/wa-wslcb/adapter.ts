/**
 * `wa-wslcb`: the Washington State Liquor and Cannabis Board's statewide licensing-activity report
 * ("New License Applications, Approvals and Discontinuances", a rolling 30 days at
 * licensinginfo.lcb.wa.gov/EntireStateWeb.asp) as a scraper keeps it in SQLite (`wslcb_data.db`,
 * table `licenses`, a row per notice). It is activity, not a roster: a `changes` source whose
 * notices are folded by license in date order, the newest notice leaving the license as it is
 * served, each dated by its own day. Nothing in it says a license is in force.
 *
 * The report has three sections; the table does not say which a row came from, but the row does:
 * a notice of an application (its date the WSLCB's Notification Date) names its privileges without
 * codes and gives the applicants; a notice of approval (Approved Date) writes its one privilege
 * with its code (`424, SPIRITS/BR/WN REST LOUNGE +`) and names no applicant; a notice of
 * discontinuance (Discontinued Date) is written as an approval is, its application type DISCONTINUED.
 *
 * | field                 | column                                                                 |
 * |-----------------------|------------------------------------------------------------------------|
 * | license               | license_number as written: six digits, the leading zero kept (084222)  |
 * | business              | business_name; an assumption's application: new_business_name, the business taking the license over |
 * | owner                 | the first of applicants (the WSLCB lists the applicant, then its principals); an assumption's application: the first of new_applicants; "" where a notice names none (approvals, discontinuances, 6 assumptions), and then the last notice that named one is kept |
 * | phone                 | contact_phone's ten digits as written; null when empty, all zeros or short (a repair each), and then the last notice's is kept |
 * | status                | the notice: `<kind> applied for`, `<kind> approved` or `discontinued`, the kind the application type lower-cased (`new license` for NEW APPLICATION); wa.json: applied for is pending, approved is a "check" (these notices are no list of licenses in force), discontinued is not in force |
 * | address               | business_location through wslcbLocation (address.ts): street, unit (null when none), city, state, ZIP (a ZIP+4 of -0000 as its 5 digits) |
 * | address.county        | "": the report gives none                                              |
 * | dates.effective       | the notice's date (notification_date, which holds the Approved or Discontinued Date of those notices): the day the license took the status it is served with |
 * | dates.expires, issued_original, issued_latest | null: the notices give none                   |
 * | details.type          | the privileges as the WSLCB names them, in its order, joined by "; " (an approval's code dropped: wa.json names each privilege with it) |
 * | details.class         | null: the WSLCB has no class apart from the privileges                 |
 * | details.description   | an assumption's application: `assumption from <current business> (<first current applicant>)`; else null |
 *
 * Skipped, counted: a notice whose privileges are all cannabis, tobacco or vapor ones (no license
 * number here is both one and a liquor license); a notice repeated on its day; no license number; an
 * unreadable date. Repaired, counted: an application with no application type (the WSLCB labels a
 * change of location's `\Application Type:`, which the scraper did not read; those 14 rows give the
 * new location only, with a line break in it) is taken as a change of location; the address's (address.ts).
 *
 * Not used: latitude, longitude, geohash, zipcode and formatted_address (the scraper's geocodes, not
 * the WSLCB's), id, creation_date and last_updated_date (the scraper's), and applicants after the
 * first (the principals' personal names).
 */
import { isDeepStrictEqual } from "node:util";
import { wslcbLocation } from "./address.ts";
import { recordChanges } from "../../import/license-history.ts";
import { readDate } from "../../readers/parse-date.ts";
import { openTableFile, readTableFile, tableLayout, type TableRow } from "../../readers/table.ts";
import { licenseNumber } from "../../import/fields.ts";
import {
  RowProblem,
  type Observed,
  type ReportedChange,
  type SourceAdapter,
  type SourceRecord,
} from "../source-adapter.ts";

export const WA_SKIPS = {
  notLiquor: "not a liquor privilege (cannabis, tobacco or vapor products)",
  repeated: "repeated row (the same notice of the license on the same day): counted once",
} as const;

export const WA_REPAIRS = {
  placeholderPhone: "contact phone 0000000000 (a placeholder): left empty",
  shortPhone: "contact phone not of 10 digits (605102848): left empty",
  noKind:
    "application type missing (the WSLCB labels a change of location's differently, and the scraper did not read it): taken as a change of location",
} as const;

const NOT_LIQUOR = /CANNABIS|TOBACCO|VAPOR|CIGAR/;
// An approval or discontinuance writes its privilege's code before its name.
const CODED = /^\d+,\s*/;

const COLUMNS = {
  date: "notification_date",
  currentBusiness: "current_business_name",
  newBusiness: "new_business_name",
  location: "business_location",
  currentApplicants: "current_applicants",
  newApplicants: "new_applicants",
  privileges: "license_type",
  kind: "application_type",
  license: "license_number",
  phone: "contact_phone",
  business: "business_name",
  applicants: "applicants",
};
type Column = keyof typeof COLUMNS;

const noticeDate = (row: TableRow<Column>) => readDate(row.value("date"), "notification date", ["us"]);

/** The contact phone's ten digits as written; null for none, a placeholder of zeros, or a number cut short. */
function contactPhone(row: TableRow<Column>): string | null {
  const phone = row.text("phone");
  if (phone === "") return null;
  if (/^0+$/.test(phone)) row.repaired(WA_REPAIRS.placeholderPhone);
  else if (!/^\d{10}$/.test(phone)) row.repaired(WA_REPAIRS.shortPhone);
  else return phone;
  return null;
}
const firstOf = (list: string) => list.split(";")[0]!.trim();

const notices = tableLayout({
  name: "WSLCB licensing-activity notices (SQLite)",
  table: "licenses",
  columns: COLUMNS,
  rowAsOf: noticeDate,
  toValue(row): SourceRecord {
    const license = licenseNumber(row.text("license"));
    const date = noticeDate(row);
    if (date === null) throw new RowProblem("unreadable notification date");
    const listed = row.text("privileges");
    const privileges = listed
      .split(";")
      .map((p) => p.trim().replace(CODED, ""))
      .filter(Boolean);
    if (privileges.length > 0 && privileges.every((p) => NOT_LIQUOR.test(p))) throw new RowProblem(WA_SKIPS.notLiquor);

    const kind = row.text("kind");
    const section = kind === "DISCONTINUED" ? "discontinued" : CODED.test(listed) ? "approved" : "applied for";
    let stem = kind === "NEW APPLICATION" ? "new license" : kind.toLowerCase();
    if (kind === "" && section === "applied for") {
      row.repaired(WA_REPAIRS.noKind);
      stem = "change of location";
    }
    const assumption = section === "applied for" && kind === "ASSUMPTION";
    const current = [row.text("currentBusiness"), firstOf(row.text("currentApplicants"))].filter(Boolean);
    return {
      license,
      business: assumption ? row.text("newBusiness") : row.text("business"),
      owner: firstOf(row.text(assumption ? "newApplicants" : "applicants")),
      phone: contactPhone(row),
      state: "wa",
      status: section === "discontinued" ? "discontinued" : `${stem || "notice"} ${section}`,
      address: wslcbLocation(row.text("location"), row),
      dates: { effective: date, expires: null, issued_original: null, issued_latest: null },
      details: {
        class: null,
        description:
          assumption && current.length ? `assumption from ${current[0]}${current[1] ? ` (${current[1]})` : ""}` : null,
        type: privileges.join("; "),
      },
    };
  },
});

/**
 * A license as its notices leave it, given oldest first: the newest notice, where a notice that names
 * no applicant or phone (an approval, a discontinuance) keeps the last one named.
 */
function foldNotices(observations: readonly Observed[]): SourceRecord {
  const newest = observations.at(-1)!.facts as SourceRecord;
  const earlier = observations.map((o) => o.facts as SourceRecord).reverse();
  return {
    ...newest,
    owner: earlier.find((r) => r.owner !== "")?.owner ?? "",
    phone: earlier.find((r) => r.phone !== null)?.phone ?? null,
  };
}

/** What each notice, oldest first, changed of the license as the fold makes it; the first is its status. */
function noticeChanges(observations: readonly Observed[]): ReportedChange[] {
  const reported: ReportedChange[] = [];
  let before: SourceRecord | null = null;
  for (let index = 0; index < observations.length; index++) {
    const after = foldNotices(observations.slice(0, index + 1));
    const changes = before
      ? recordChanges(before, after)
      : [{ field: "status" as const, license_type: null, from: null, to: after.status }];
    if (changes.length > 0) reported.push({ index, changes });
    before = after;
  }
  return reported;
}

export const waWslcb: SourceAdapter = {
  name: "wa-wslcb",
  state: "wa",
  agency: "Washington State Liquor and Cannabis Board",
  description: "WA WSLCB: statewide licensing-activity notices (applications, approvals, discontinuances), in SQLite",
  kind: "changes",

  async inspect(file) {
    await (await openTableFile(file, [notices])).close();
    return {
      layout: notices.name,
      title: "WSLCB New License Applications, Approvals and Discontinuances (statewide, 30 days)",
      family: "wa-wslcb: licensing-activity notices",
      asOf: null,
      coverage: ({ first, last }) =>
        `licensing-activity notices ${first ?? "?"} to ${last ?? "?"} only: applications pending then, approvals and licenses discontinued; not a list of licenses in force`,
      // Each notice states its day.
      datesBeforeExport: () => [],
    };
  },

  async *read(file) {
    const seen = new Map<string, { asOf: string | null | undefined; facts: SourceRecord }[]>();
    for await (const row of readTableFile(file, [notices])) {
      if ("skip" in row) {
        yield row;
        continue;
      }
      const { at, value, repairs, asOf } = row;
      const before = seen.get(value.license) ?? [];
      if (before.some((b) => b.asOf === asOf && isDeepStrictEqual(b.facts, value))) {
        yield { at, skip: WA_SKIPS.repeated };
        continue;
      }
      seen.set(value.license, [...before, { asOf, facts: value }]);
      yield { at, license: value.license, facts: value, repairs, asOf: asOf ?? undefined };
    }
  },

  fold: foldNotices,
  history: noticeChanges,
};
