import type { HistoryChange } from "../../../../src/contract/envelopes.ts";
import { sameValue } from "../../import/license-history.ts";
import type { Observed, ReportedChange } from "../source-adapter.ts";
import type { StatusChange } from "./status-change.ts";

/**
 * What each of a license's daily reports (oldest first) changed, by the fold's rules (fold.ts):
 * a type's status from the first report that carries it (a repeat on a later day is none), a
 * type's expiry when a report gives another, the trade name, owner or premises when a report gives
 * others. A blank says nothing. The first report is the license's first entry: its type's change.
 */
export function reportedChanges(
  observations: readonly Observed[],
  statusOf: (raw: string) => string,
): ReportedChange[] {
  const types = new Map<string, { status: string; expires: string | null }>();
  let dba: string | null = null;
  let owner: string | null = null;
  let premises: string | null = null;
  const reported: ReportedChange[] = [];
  for (const [index, o] of observations.entries()) {
    const c = o.facts as StatusChange;
    const changes: HistoryChange[] = [];
    const of = (field: HistoryChange["field"], from: string | null, to: string, licenseType: string | null = null) =>
      changes.push({ field, license_type: licenseType, from, to });

    const type = types.get(c.typeCode);
    const status = statusOf(c.to);
    if (!type || type.status !== status) of("status", type?.status ?? statusOf(c.from), status, c.typeCode);
    if (type?.expires && c.expires && c.expires !== type.expires) of("expires", type.expires, c.expires, c.typeCode);
    types.set(c.typeCode, { status, expires: c.expires ?? type?.expires ?? null });

    if (c.dba) {
      if (dba !== null && !sameValue("business", dba, c.dba)) of("business", dba, c.dba);
      dba = c.dba;
    }
    if (c.owner) {
      if (owner !== null && !sameValue("owner", owner, c.owner)) of("owner", owner, c.owner);
      owner = c.owner;
    }
    if (c.street || c.city || c.zip) {
      const place = [c.postalState ?? "CA", c.zip].filter(Boolean).join(" ");
      const where = [c.street, c.city, place].filter(Boolean).join(", ");
      if (premises !== null && !sameValue("address", premises, where)) of("address", premises, where);
      premises = where;
    }
    if (changes.length > 0) reported.push({ index, changes });
  }
  return reported;
}
