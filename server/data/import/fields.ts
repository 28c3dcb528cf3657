import { cellText } from "../readers/cell-text.ts";
import { readDate, type DateFormat } from "../readers/parse-date.ts";
import type { TableRow } from "../readers/table.ts";
import { RowProblem } from "../sources/source-adapter.ts";

// Field readers several agencies share.

/** Where a field reader notes what it mended to keep a row (a TableRow is one). */
export interface Mends {
  repaired(reason: string): void;
}

/** A license number exactly as the source writes it (leading zeros, dashes), only surrounding spaces trimmed. */
export function licenseNumber(text: string): string {
  if (text === "") throw new RowProblem("no license number");
  return text;
}

export const SPACES_REPAIR = "spaces or line breaks around or doubled inside a name or address made single";

/**
 * Reads a row's cells as text with their spacing tidied (`OLD TOWN CELLARS  LLC`, `JOHN `): ends
 * trimmed, runs of spaces and line breaks inside made one space. The row gets one repair,
 * SPACES_REPAIR, if any cell read through it needed it.
 */
export function tidyCells<K extends string>(row: TableRow<K>): (key: K) => string {
  let noted = false;
  return (key) => {
    const raw = row.value(key);
    const text = typeof raw === "string" ? raw : cellText(raw);
    const tidy = text.replace(/\s+/g, " ").trim();
    if (tidy !== text && !noted) {
      noted = true;
      row.repaired(SPACES_REPAIR);
    }
    return tidy;
  };
}

/** A source's raw status words (upper case) and the contract's lower-case word for each. */
export type StatusTable = Readonly<Record<string, string>>;

/** The status word for a raw status: the table's word, else the raw status lower-cased, never dropped. */
export function mapStatus(raw: string, table: StatusTable): string {
  const trimmed = raw.trim();
  return table[trimmed.toUpperCase()] ?? trimmed.toLowerCase();
}

/**
 * A date as readDate reads it; a cell that holds no readable date is null and a repair, so the
 * license is kept rather than dropped for one bad cell.
 */
export function dateOrEmpty(value: unknown, label: string, formats: readonly DateFormat[], row: Mends): string | null {
  try {
    return readDate(value, label, formats);
  } catch (error) {
    if (!(error instanceof RowProblem)) throw error;
    row.repaired(`${error.message}: left empty`);
    return null;
  }
}

// The state of each 3-digit ZIP prefix (USPS), "from-to states"; a prefix two states share names both.
const ZIP_PREFIXES = (
  "005 NY|006-007 PR|008 VI|009 PR|010-027 MA|028-029 RI|030-038 NH|039-049 ME|050-054 VT|055 MA|" +
  "056-059 VT|060-062 CT|063 CT NY|064-069 CT|070-089 NJ|090-099 AE|100-149 NY|150-196 PA|197-199 DE|" +
  "200 DC|201 VA|202-205 DC|206-219 MD|220-246 VA|247-268 WV|270-289 NC|290-299 SC|300-319 GA|320-339 FL|" +
  "340 AA|341-349 FL|350-369 AL|370-385 TN|386-397 MS|398-399 GA|400-427 KY|430-459 OH|460-479 IN|" +
  "480-499 MI|500-528 IA|530-549 WI|550-567 MN|569 DC|570-577 SD|580-588 ND|590-599 MT|600-629 IL|" +
  "630-658 MO|660-679 KS|680-693 NE|700-715 LA|716-729 AR|730-732 OK|733 TX|734-749 OK|750-754 TX|" +
  "755 TX AR|756-799 TX|800-816 CO|820-831 WY|832-838 ID|840-847 UT|850-865 AZ|870-884 NM|885 TX|" +
  "889-898 NV|900-961 CA|962-966 AP|967 HI AS|968 HI|969 GU MP FM MH PW|970-979 OR|980-994 WA|995-999 AK"
).split("|");
const STATES_OF_PREFIX: string[][] = [];
for (const entry of ZIP_PREFIXES) {
  const [range, ...states] = entry.split(" ");
  const [from, to = from] = range!.split("-").map(Number);
  for (let prefix = from!; prefix <= to!; prefix++) STATES_OF_PREFIX[prefix] = states;
}
const STATE_CODES = new Set(STATES_OF_PREFIX.flat());
// States whose ZIPs all start with 0: a 4-digit ZIP there lost its 0 to a spreadsheet.
const ZERO_STATES = new Set(["CT", "MA", "ME", "NH", "NJ", "PR", "RI", "VT", "VI", "AE"]);

/** A postal code of a US state or territory (or an armed-forces "state"). */
export function isStateCode(text: string): boolean {
  return STATE_CODES.has(text);
}

// The first digits a state's ZIPs start with (NY: 0 and 1): ZIPs near a border can belong to a
// post office across it (Bellingham, MA on Woonsocket, RI's 02895), so only a ZIP of another
// region altogether is taken as wrong.
const FIRST_DIGITS = new Map<string, string>();
STATES_OF_PREFIX.forEach((states, prefix) => {
  const digit = String(prefix).padStart(3, "0")[0]!;
  for (const state of states)
    if (!FIRST_DIGITS.get(state)?.includes(digit)) FIRST_DIGITS.set(state, (FIRST_DIGITS.get(state) ?? "") + digit);
});

/** The states a well-formed ZIP (12345, 12345-6789, 123456789) can be in; [] for anything else. */
export function zipStates(zip: string): readonly string[] {
  return /^\d{5}(?:-?\d{4})?$/.test(zip) ? (STATES_OF_PREFIX[Number(zip.slice(0, 3))] ?? []) : [];
}

/** Whether a well-formed ZIP is in the state's part of the country (its first digit); true for a state not known. */
export function zipFitsState(zip: string, state: string): boolean {
  const digits = FIRST_DIGITS.get(state);
  return digits === undefined || digits.includes(zip[0]!);
}

export const ZIP_REPAIRS = {
  leadingZero: "ZIP of 4 digits: the leading 0 a spreadsheet dropped put back",
  strayLetter: "ZIP with a letter after its 5 digits: the letter dropped",
  unusable: "ZIP is not 5 digits or ZIP+4: left empty",
  otherState: "ZIP of another part of the country than the address's state: left empty",
} as const;

/**
 * A ZIP code as 12345 or 12345-6789 (nine bare digits get their dash). A 4-digit ZIP in a state
 * whose ZIPs all start with 0 had its 0 dropped by a spreadsheet and gets it back (a 4-digit one
 * starting with 0 lost another digit: unusable). What cannot be trusted, a malformed ZIP or one far
 * from the state (20540 in Massachusetts), is "" and a repair; "" stays "" (the source gave none).
 */
export function zipCode(text: string, state: string, row: Mends): string {
  if (text === "") return "";
  let zip: string;
  const plain = /^(\d{5})-?(\d{4})?$/.exec(text);
  if (plain) {
    zip = plain[2] ? `${plain[1]}-${plain[2]}` : plain[1]!;
  } else if (/^[1-9]\d{3}$/.test(text) && ZERO_STATES.has(state)) {
    row.repaired(ZIP_REPAIRS.leadingZero);
    zip = `0${text}`;
  } else if (/^\d{5}[A-Z]$/i.test(text)) {
    row.repaired(ZIP_REPAIRS.strayLetter);
    zip = text.slice(0, 5);
  } else {
    row.repaired(ZIP_REPAIRS.unusable);
    return "";
  }
  if (!zipFitsState(zip, state)) {
    row.repaired(ZIP_REPAIRS.otherState);
    return "";
  }
  return zip;
}
