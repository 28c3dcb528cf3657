import { caCounty } from "./counties.ts";
import type { StatusChange } from "./status-change.ts";
import type { Observed, SourceRecord } from "../source-adapter.ts";

/** Fields a report may leave blank without meaning they changed: the last value given carries forward. */
const CARRIED = [
  "dba",
  "owner",
  "street",
  "city",
  "countyCode",
  "zip",
  "postalState",
  "expires",
  "originalIssue",
] as const;
type Carried = Pick<StatusChange, (typeof CARRIED)[number]>;

interface TypeState {
  /** The raw status word of the type's latest change. */
  to: string;
  /** The day of the first report of the type's current status: a repeat of a change does not move it. */
  since: string;
  /** The order of its latest change among the license's changes. */
  order: number;
}

/**
 * A license as its daily status changes make it, given oldest first.
 *
 * - Status: `active` while any of its license types is active (a type can be cancelled the day
 *   another is activated); otherwise the status of the type that changed last.
 * - Effective: the day the current status took effect: the first report that carries it. The
 *   reports repeat a change on later days; a repeat does not move the date. While active, the
 *   earliest day any active type became active; otherwise the day of the last type's change.
 * - Every other field: the last value any report gave. A report that leaves a field blank (an
 *   owner, an expiry, a DBA) does not blank it; a report that gives another value changes it.
 */
export function foldLicense(observations: readonly Observed[], statusOf: (raw: string) => string): SourceRecord {
  const types = new Map<string, TypeState>();
  const last: Partial<Record<keyof Carried, string>> = {};
  let license = "";
  observations.forEach((o, order) => {
    const c = o.facts as StatusChange;
    const day = o.asOf!;
    license = c.license;
    const type = types.get(c.typeCode);
    const since = type && statusOf(type.to) === statusOf(c.to) ? type.since : day;
    types.set(c.typeCode, { to: c.to, since, order });
    for (const field of CARRIED) {
      const value = c[field];
      if (value) last[field] = value;
    }
  });

  const all = [...types.entries()];
  const active = all.filter(([, t]) => statusOf(t.to) === "active");
  const latest = all.reduce((a, b) => (b[1].order > a[1].order ? b : a));
  const status = active.length ? "active" : statusOf(latest[1].to);
  const effective = active.length ? active.map(([, t]) => t.since).sort()[0]! : latest[1].since;
  const inStatus = active.length ? active : all.filter(([, t]) => statusOf(t.to) === status);
  const [line1, ...more] = (last.street ?? "").split(",").map((s) => s.trim());
  const owner = last.owner ?? "";
  return {
    license,
    business: last.dba ?? owner,
    owner,
    phone: null,
    state: "ca",
    status,
    address: {
      line_1: line1 ?? "",
      line_2: more.filter(Boolean).join(", ") || null,
      city: last.city ?? "",
      county: caCounty(last.countyCode ?? ""),
      state: last.postalState ?? "CA",
      zip: last.zip ?? "",
    },
    dates: {
      effective,
      expires: last.expires ?? null,
      issued_original: last.originalIssue ?? null,
      issued_latest: null,
    },
    details: {
      class: null,
      description: null,
      type: inStatus
        .map(([code]) => code)
        .sort()
        .join(", "),
    },
  };
}
