import { caCounty } from "./ca-counties.ts";
import type { StatusChange } from "./ca-status-change.ts";
import type { RowRef, SourceRecord } from "./row-outcome.ts";

/** A status change as reported on a day. */
export interface ReportedChange {
  /** The report's date, YYYY-MM-DD. */
  date: string;
  at: RowRef;
  change: StatusChange;
}

interface LicenseHistory {
  /** The latest change of each license type the license holds, by type code. */
  byType: Map<string, ReportedChange>;
  /** The latest change that gave an original issue date (pending rows often leave it blank). */
  issued: ReportedChange | null;
  rows: number;
}

/** Later in report order: by date, then report path, then line; so the fold's result does not depend on reading order. */
function isLater(a: ReportedChange, b: ReportedChange): boolean {
  if (a.date !== b.date) return a.date > b.date;
  if (a.at.file !== b.at.file) return a.at.file > b.at.file;
  return a.at.line > b.at.line;
}

/**
 * Folds daily status changes into each license's latest state. A license's status is `active`
 * while any of its types is active (a type can be cancelled the day another is activated);
 * otherwise the status of its latest change. Its other fields come from the row that decided that.
 */
export class LicenseFold {
  private readonly licenses = new Map<string, LicenseHistory>();

  constructor(private readonly statusOf: (raw: string) => string) {}

  add(reported: ReportedChange): void {
    const { license, typeCode, originalIssue } = reported.change;
    let history = this.licenses.get(license);
    if (!history) {
      history = { byType: new Map(), issued: null, rows: 0 };
      this.licenses.set(license, history);
    }
    history.rows++;
    const known = history.byType.get(typeCode);
    if (!known || isLater(reported, known)) history.byType.set(typeCode, reported);
    if (originalIssue && (!history.issued || isLater(reported, history.issued))) history.issued = reported;
  }

  *records(): Generator<{ at: RowRef; record: SourceRecord; rows: number }> {
    for (const history of this.licenses.values()) yield this.record(history);
  }

  private record(history: LicenseHistory): { at: RowRef; record: SourceRecord; rows: number } {
    const latest = [...history.byType.values()];
    const statusOf = (r: ReportedChange) => this.statusOf(r.change.to);
    const live = latest.filter((r) => statusOf(r) === "active");
    const deciding = (live.length ? live : latest).reduce((a, b) => (isLater(b, a) ? b : a));
    const status = statusOf(deciding);
    const types = latest.filter((r) => statusOf(r) === status).map((r) => r.change.typeCode);
    const c = deciding.change;
    const [line1, ...more] = c.street.split(",").map((s) => s.trim());
    return {
      at: deciding.at,
      rows: history.rows,
      record: {
        license: c.license,
        business: c.dba ?? c.owner,
        owner: c.owner,
        phone: null,
        state: "ca",
        status,
        address: {
          line_1: line1 ?? "",
          line_2: more.filter(Boolean).join(", ") || null,
          city: c.city,
          county: caCounty(c.countyCode),
          state: c.postalState ?? "CA",
          zip: c.zip,
        },
        dates: {
          effective: deciding.date,
          expires: c.expires,
          issued_original: c.originalIssue ?? history.issued?.change.originalIssue ?? null,
          issued_latest: null,
        },
        details: { class: null, description: null, type: [...new Set(types)].sort().join(", ") },
      },
    };
  }
}
