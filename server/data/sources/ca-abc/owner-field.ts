/** What the CA ABC packs into "Primary Owner and Premises Addr.": `DBA: name`, owner, street, `CITY, ST  ZIP`. */
export interface OwnerField {
  dba: string | null;
  /** "" when the field gives none (a later report may leave it out: the fold carries the last one). */
  owner: string;
  /** The premises' state from the postal line (out-of-state shippers hold CA licenses too). */
  postalState: string | null;
}

// The parts are separated by runs of padding spaces; "CA  90301" has only two.
const PART_GAP = /\s{3,}/;
const POSTAL_LINE = /,\s*([A-Z]{2})\s+\d{5}(?:-\d{4})?$/;

/**
 * The parts of the field, told apart by the report's own Prem Street column: the street starts at
 * the last part that is that street (or its first line: `748 W RANCHO VISTA BLVD`, `, STE E,`), and
 * the owner is the part before. Only a whole match counts: `3110 MAIN STREET LLC` and
 * `1870 HARBOR BLVD, LLC` are owners on 3110 MAIN ST and 1870 HARBOR BLVD. The agency ends each
 * address line with a comma, and sometimes a name too (`SEOUL COLLECTIVE.ENT INC.,`): that comma
 * is its separator, not part of the name. Without a Prem Street, a part ending in a comma is the street.
 */
export function parseOwnerField(text: string, premStreet: string): OwnerField {
  const parts = text.trim().split(PART_GAP).filter(Boolean);
  const dba = parts[0]?.startsWith("DBA:") ? parts.shift()!.slice(4).trim() || null : null;
  const postal = parts.length ? POSTAL_LINE.exec(parts.at(-1)!) : null;
  if (postal) parts.pop();
  const streetAt = premStreet
    ? streetPart(parts, premStreet)
    : parts.findIndex((p) => p.endsWith(",") || p.startsWith(","));
  const names = streetAt === -1 ? parts : parts.slice(0, streetAt);
  const owner = (names[0] ?? "").replace(/\s*,$/, "").trim();
  return { dba, owner, postalState: postal?.[1] ?? null };
}

/** Where the street starts among the parts: most write Prem Street as it is, some space it otherwise. */
function streetPart(parts: readonly string[], premStreet: string): number {
  const withComma = `${premStreet},`;
  const at = parts.findLastIndex((part) => part === premStreet || part === withComma);
  if (at !== -1) return at;
  const street = addressLine(premStreet);
  const firstLine = addressLine(premStreet.split(",")[0]!);
  return parts.findLastIndex((part) => {
    const line = addressLine(part);
    return line === street || line === firstLine;
  });
}

/** An address line as the two columns may both write it: `300 FRANK H OGAWA PLZ   , STE 400` and `…PLZ, STE 400,`. */
function addressLine(text: string): string {
  return text
    .replace(/\s*,\s*/g, ", ")
    .replace(/\s+/g, " ")
    .replace(/[\s,]+$/, "")
    .trim();
}
