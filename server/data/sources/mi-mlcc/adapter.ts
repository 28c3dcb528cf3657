/**
 * `mi-mlcc`: Michigan Liquor Control Commission licenses at premises in the City of Detroit, as the
 * City's open-data portal republishes them ("Liquor Licenses", an ArcGIS Hub CSV export: X, Y,
 * ObjectId). A row is one license: a business (business_id) holding an SDM license beside its
 * Class C license has a row, and a number, for each. The file states no date of its own.
 *
 * | field                 | column                                                                 |
 * |-----------------------|------------------------------------------------------------------------|
 * | license               | number, MLCC's license number as written: L- and nine digits (L-000006894); one that lost its leading zeros gets them back (a repair); any other form is a skip |
 * | business              | dba, the trade name; account_name when dba is empty (296 rows)         |
 * | owner                 | account_name, the licensee                                             |
 * | phone                 | null: none published                                                   |
 * | status                | status through STATUSES: Active → active, Escrow → escrow (the business closed and MLCC holds the license), Conditional → conditional; "" with a repair when empty |
 * | address.line_1        | street_address                                                         |
 * | address.line_2        | null: the export has one street column                                 |
 * | address.city          | "Detroit": the City's dataset holds licenses in Detroit only (no city column) |
 * | address.county        | "Wayne": all of Detroit is in Wayne County                             |
 * | address.state         | "MI"                                                                   |
 * | address.zip           | zip_code through `zipCode` (five digits, a Michigan ZIP)               |
 * | dates.*               | null: the export gives no issue, effective or expiry date              |
 * | details.type          | type as written: Class C, Specially Designated Merchant, ...; a license on two rows of one business, one per type, lists both ("Class C, Specially Designated Merchant") |
 * | details.class         | subtype, the kind of license within its type: Regular, Resort, RDA (redevelopment), Special Act; null when empty |
 * | details.description   | group_ and type, then subtype and statute where given: "Retail - On Premises: Class C, Resort, MCL 436.1531(2)"; "Retail - Off Premise" written as the other 1,283 rows write it (a repair) |
 *
 * Not used: X and Y (the City's geocode), business_id, ownership_transferable,
 * location_transferable, ObjectId (the export's row number).
 *
 * A license number on several rows: one business's rows, alike but for the license type (L-000221315,
 * MY SPOT: a Class C and an SDM row, both in escrow), are one license with both types, joined on
 * its first row (a repair; the later row is a skip saying so). Rows of different businesses or
 * statuses (L-000008680: ICICLES, a Class C in escrow, and 7-EXPRESS-MARKET, an active SDM) cannot
 * both be the license, and the file cannot say which is: neither is kept, each a skip, so a clerk
 * is sent to MLCC rather than shown the wrong business's standing. The file is read whole (it is
 * about 2,000 rows) to find them.
 *
 * As of: the export states no date. A copy we know by its SHA-256 is as of the day it was published
 * (its data is no newer); any other is as of the date given at import, else not known.
 */
import { presentText } from "../../readers/cell-text.ts";
import { sha256Of } from "../../readers/source-file.ts";
import { mapStatus, zipCode, type StatusTable } from "../../import/fields.ts";
import { rosterAdapter, rosterLayout } from "../roster-adapter.ts";
import {
  RowProblem,
  type FileInspection,
  type RowOutcome,
  type SourceAdapter,
  type SourceRecord,
} from "../source-adapter.ts";

const STATUSES: StatusTable = { ACTIVE: "active", ESCROW: "escrow", CONDITIONAL: "conditional" };

const NUMBER = /^L-(\d{9})$/;
const SHORT_NUMBER = /^L-?(\d{1,8})$/i;

export const MI_REPAIRS = {
  noStatus: "no status: status left empty",
  numberZeros: "license number short of its nine digits (leading zeros a spreadsheet dropped): put back",
  offPremise: "group_ written Retail - Off Premise: read as Retail - Off Premises",
  joined: "one license on several rows of one business, a row per license type: joined, its types listed together",
} as const;

export const MI_SKIPS = {
  joined: "a further license type of the license on an earlier row of the same business: joined to that row",
  conflict:
    "the license number is also on a row of another business or status: neither row is kept, as the file cannot say which is the license",
} as const;

/**
 * Copies of the export we know from where they were published: the file states no date, and its
 * publication is the newest day its data can be as of.
 */
const PUBLISHED_COPIES: Readonly<Record<string, string>> = {
  // Liquor_Licenses.csv as committed to wijj/si330-project in 8680bbb4 on 2021-04-05 (../shared/data/mi).
  "194953aee64f54446603f070bc123f141752be10fed8d5f505bb59f38ebbea0f": "2021-04-05",
};

/** MLCC's L- and nine digits; a number that lost leading zeros gets them back. */
function mlccNumber(text: string, row: { repaired(reason: string): void }): string {
  if (text === "") throw new RowProblem("no license number");
  if (NUMBER.test(text)) return text;
  const short = SHORT_NUMBER.exec(text);
  if (!short) throw new RowProblem(`license number not in MLCC's form (${text})`);
  row.repaired(MI_REPAIRS.numberZeros);
  return `L-${short[1]!.padStart(9, "0")}`;
}

const detroitList = rosterLayout({
  name: "Detroit open data: MLCC liquor licenses (ArcGIS CSV)",
  title: "City of Detroit Liquor Licenses (MLCC licenses in Detroit)",
  family: "Detroit liquor licenses",
  coverage: () =>
    "Detroit only: MLCC's active, conditional and escrowed licenses at premises in the city; no special (one-day) licenses",
  // No dates at all.
  datesBeforeExport: () => [],
  columns: {
    accountName: "account_name",
    dba: "dba",
    street: "street_address",
    zip: "zip_code",
    group: "group_",
    type: "type",
    subtype: "subtype",
    statute: "statute",
    license: "number",
    status: "status",
  },
  toValue(row): SourceRecord {
    const license = mlccNumber(row.text("license"), row);
    const status = row.text("status");
    if (status === "") row.repaired(MI_REPAIRS.noStatus);
    let group = row.text("group");
    if (group === "Retail - Off Premise") {
      row.repaired(MI_REPAIRS.offPremise);
      group = "Retail - Off Premises";
    }
    const type = row.text("type");
    const subtype = row.text("subtype");
    const owner = row.text("accountName");
    return {
      license,
      business: row.text("dba") || owner,
      owner,
      phone: null,
      state: "mi",
      status: mapStatus(status, STATUSES),
      address: {
        line_1: row.text("street"),
        line_2: null,
        city: "Detroit",
        county: "Wayne",
        state: "MI",
        zip: zipCode(row.text("zip"), "MI", row),
      },
      dates: { effective: null, expires: null, issued_original: null, issued_latest: null },
      details: {
        class: presentText(subtype),
        description: presentText(
          [[group, type].filter(Boolean).join(": "), subtype, row.text("statute")].filter(Boolean).join(", "),
        ),
        type,
      },
    };
  },
});

type Licensed = Extract<RowOutcome, { license: string }>;

/** What a row says of its holder and standing, all but the license kind. */
function holder(record: SourceRecord): string {
  return JSON.stringify([record.business, record.owner, record.status, record.address]);
}

/** Distinct values, in order, joined; null when none. */
function joined(values: (string | null)[], separator: string): string | null {
  const distinct = [...new Set(values.filter((v): v is string => v !== null && v !== ""))];
  return distinct.length ? distinct.join(separator) : null;
}

/**
 * One outcome per row, a license number once: one business's rows of a number joined into a
 * license of several types, rows of different holders of a number all skipped (see the header).
 */
async function* oneLicensePerNumber(rows: AsyncIterable<RowOutcome>): AsyncGenerator<RowOutcome> {
  const outcomes: RowOutcome[] = [];
  const byNumber = new Map<string, Licensed[]>();
  for await (const outcome of rows) {
    outcomes.push(outcome);
    if ("skip" in outcome) continue;
    const same = byNumber.get(outcome.license);
    if (same) same.push(outcome);
    else byNumber.set(outcome.license, [outcome]);
  }
  for (const outcome of outcomes) {
    if ("skip" in outcome) {
      yield outcome;
      continue;
    }
    const rowsOf = byNumber.get(outcome.license)!;
    if (rowsOf.length === 1) {
      yield outcome;
      continue;
    }
    const records = rowsOf.map((o) => o.facts as SourceRecord);
    if (new Set(records.map(holder)).size > 1) {
      yield { at: outcome.at, skip: MI_SKIPS.conflict };
    } else if (outcome !== rowsOf[0]) {
      yield { at: outcome.at, skip: MI_SKIPS.joined };
    } else {
      const first = records[0]!;
      const details: SourceRecord["details"] = {
        type: joined(
          records.map((r) => r.details.type),
          ", ",
        )!,
        class: joined(
          records.map((r) => r.details.class),
          ", ",
        ),
        description: joined(
          records.map((r) => r.details.description),
          "; ",
        ),
      };
      yield {
        ...outcome,
        facts: { ...first, details },
        repairs: [...rowsOf.flatMap((o) => o.repairs ?? []), MI_REPAIRS.joined],
      };
    }
  }
}

const roster = rosterAdapter({
  name: "mi-mlcc",
  state: "mi",
  agency: "Michigan Liquor Control Commission",
  description: "MI MLCC: licenses in Detroit from the City's open-data portal (Liquor_Licenses.csv, ArcGIS CSV)",
  layouts: [detroitList],
});

export const miMlcc: SourceAdapter = {
  ...roster,
  async inspect(file, options) {
    const inspection = await roster.inspect(file, options);
    const published = PUBLISHED_COPIES[await sha256Of(file.path)];
    // The same object: a table the inspection kept open is found by it.
    if (published)
      Object.assign(inspection, {
        asOf: published,
        asOfFrom: "the day the file was published",
      } satisfies Partial<FileInspection>);
    return inspection;
  },
  read: (file, inspection) => oneLicensePerNumber(roster.read(file, inspection)),
};
