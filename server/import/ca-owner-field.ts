/** What the CA ABC packs into "Primary Owner and Premises Addr.": `DBA: name`, owner, street, `CITY, ST  ZIP`. */
export interface OwnerField {
  dba: string | null;
  owner: string;
  /** The premises' state from the postal line (out-of-state shippers hold CA licenses too). */
  postalState: string | null;
}

// The parts are separated by runs of padding spaces; "CA  90301" has only two.
const PART_GAP = /\s{3,}/;
const POSTAL_LINE = /,\s*([A-Z]{2})\s+\d{5}(?:-\d{4})?$/;

export function parseOwnerField(text: string): OwnerField {
  const parts = text.trim().split(PART_GAP).filter(Boolean);
  const dba = parts[0]?.startsWith("DBA:") ? parts.shift()!.slice(4).trim() || null : null;
  const postal = parts.length ? POSTAL_LINE.exec(parts.at(-1)!) : null;
  if (postal) parts.pop();
  // Street parts end (or start) with the comma the agency puts after each address line.
  const names = parts.filter((p) => !p.endsWith(",") && !p.startsWith(","));
  return { dba, owner: names[0] ?? "", postalState: postal?.[1] ?? null };
}
