import { caCounty } from "./counties.ts";
import type { StatusChange } from "./status-change.ts";
import type { Observed, SourceRecord } from "../source-adapter.ts";

/** The premises columns: one address, so a report that gives it gives all of it. */
type Premises = Pick<StatusChange, "street" | "city" | "countyCode" | "zip" | "postalState">;

interface Dates {
  expires: string | null;
  originalIssue: string | null;
}

interface TypeState extends Dates {
  /** The raw status word of the type's current status. */
  to: string;
  /** The day of the first report of the type's current status: a repeat of a change does not move it. */
  since: string;
  /** The order of that first report among the license's rows: a repeat is not a later change. */
  order: number;
}

/**
 * A license as its daily status changes make it, given oldest first. A report row repeats the
 * license's fields whatever changed, but leaves some out (an owner, an expiry on a pending or
 * reinstated type): a blank says nothing, so the last value given carries forward, and only a
 * report that gives another value changes a field.
 *
 * - status: `active` while any of its license types is active (a type can be cancelled the day
 *   another is activated); otherwise the status of the type whose status changed last.
 * - effective: the first report of the current status; the reports repeat a change on later
 *   days, and a repeat moves nothing. While active, the earliest day an active type became
 *   active; otherwise the day the last type took the status.
 * - details.type: the types in the current status.
 * - expires, issued_original: the last given for the types in the current status (578170's
 *   active type 47 expires 2024-04-30, its cancelled type 41 2023-07-31); if those never gave
 *   one, the last the license gave (636550's withdrawn add-on types never had an expiry, its
 *   cancelled ones did). Withdrawn cancellations and surrenders (`WTHDRN ACTIVE`, 617995)
 *   leave both blank, though the license keeps its term: they carry.
 * - business (the DBA), owner: the last given; a blank carries (610400's last report has no owner).
 *   They are the license's, not a type's: the rows of its types on one day never differ in them.
 * - address: the premises of the last report that gives one, whole: parts are never mixed
 *   across reports.
 */
export function foldLicense(observations: readonly Observed[], statusOf: (raw: string) => string): SourceRecord {
  const types = new Map<string, TypeState>();
  const given: Dates = { expires: null, originalIssue: null };
  let license = "";
  let dba: string | null = null;
  let owner = "";
  let premises: Premises | null = null;
  for (const [order, o] of observations.entries()) {
    const c = o.facts as StatusChange;
    const day = o.asOf!;
    license = c.license;
    const type = types.get(c.typeCode);
    if (type && statusOf(type.to) === statusOf(c.to)) {
      type.expires = c.expires ?? type.expires;
      type.originalIssue = c.originalIssue ?? type.originalIssue;
    } else {
      const expires = c.expires ?? type?.expires ?? null;
      const originalIssue = c.originalIssue ?? type?.originalIssue ?? null;
      types.set(c.typeCode, { to: c.to, since: day, order, expires, originalIssue });
    }
    given.expires = c.expires ?? given.expires;
    given.originalIssue = c.originalIssue ?? given.originalIssue;
    dba = c.dba ?? dba;
    owner = c.owner || owner;
    if (c.street || c.city || c.zip) premises = c;
  }

  const all = [...types.entries()];
  const active = all.filter(([, t]) => statusOf(t.to) === "active");
  const latest = all.reduce((a, b) => (b[1].order > a[1].order ? b : a));
  const status = active.length ? "active" : statusOf(latest[1].to);
  const effective = active.length ? active.map(([, t]) => t.since).sort()[0]! : latest[1].since;
  const inStatus = (active.length ? active : all.filter(([, t]) => statusOf(t.to) === status))
    .map(([, t]) => t)
    .sort((a, b) => b.order - a.order);
  const where: Premises = premises ?? { street: "", city: "", countyCode: "", zip: "", postalState: null };
  const [line1, ...more] = where.street.split(",").map((s) => s.trim());
  return {
    license,
    business: dba ?? owner,
    owner,
    phone: null,
    state: "ca",
    status,
    address: {
      line_1: line1 ?? "",
      line_2: more.filter(Boolean).join(", ") || null,
      city: where.city,
      county: caCounty(where.countyCode),
      state: where.postalState ?? "CA",
      zip: where.zip,
    },
    dates: {
      effective,
      expires: inStatus.find((t) => t.expires)?.expires ?? given.expires,
      issued_original: inStatus.find((t) => t.originalIssue)?.originalIssue ?? given.originalIssue,
      issued_latest: null,
    },
    details: {
      class: null,
      description: null,
      type: all
        .filter(([, t]) => inStatus.includes(t))
        .map(([code]) => code)
        .sort()
        .join(", "),
    },
  };
}
