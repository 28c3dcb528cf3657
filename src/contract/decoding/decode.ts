import type { CodeKind, DecodingTable, StatusCategory } from "./decoding-table.ts";

/** Shown beside a code the state's table does not name. */
export const CODE_NOT_IN_TABLE = "code not in our table";

// Each table is a module of its own, loaded with the state's first record: the first page carries none.
const TABLES: Record<string, () => Promise<{ default: unknown }>> = {
  ca: () => import("./ca.json"),
  co: () => import("./co.json"),
  dc: () => import("./dc.json"),
  ky: () => import("./ky.json"),
  ga: () => import("./ga.json"),
  ma: () => import("./ma.json"),
  md: () => import("./md.json"),
  mi: () => import("./mi.json"),
  nj: () => import("./nj.json"),
  ny: () => import("./ny.json"),
  pa: () => import("./pa.json"),
  tx: () => import("./tx.json"),
  wa: () => import("./wa.json"),
};

/** The states we hold decoding tables for. */
export const DECODED_STATES: readonly string[] = Object.keys(TABLES);

/** A state's decoding table, or null for a state we hold none for. */
export async function loadDecodingTable(state: string): Promise<DecodingTable | null> {
  const load = TABLES[state.toLowerCase()];
  return load ? ((await load()).default as DecodingTable) : null;
}

const statusIndexes = new WeakMap<DecodingTable, Map<string, DecodingTable["statuses"][number]>>();

function statusIndex(table: DecodingTable) {
  let index = statusIndexes.get(table);
  if (!index) {
    index = new Map(
      table.statuses.flatMap((entry) => entry.values.map((value) => [value.toLowerCase(), entry] as const)),
    );
    statusIndexes.set(table, index);
  }
  return index;
}

export interface DecodedStatus {
  category: StatusCategory;
  /** The state's meaning in plain words; a status not in the table is shown as written. */
  words: string;
}

/**
 * Plain English status words, for a state whose table does not have them (a state we hold no table
 * for, another service's data): the contract shows `active` as the one value it knows; the others
 * say what they mean in any state.
 */
const PLAIN_WORDS: ReadonlyMap<string, StatusCategory> = new Map([
  ["active", "in force"],
  ...["expired", "inactive", "cancelled", "canceled", "revoked", "suspended", "surrendered", "withdrawn", "denied"].map(
    (word) => [word, "not in force"] as const,
  ),
  ["pending", "pending"],
]);

/** What a license's status means in its state (by its table, when we hold one): in force, not in force, pending, or unknown. */
export function statusCategory(table: DecodingTable | null, status: string): DecodedStatus {
  const written = status.trim();
  const entry = table && statusIndex(table).get(written.toLowerCase());
  if (entry) return { category: entry.category, words: entry.words };
  const plain = PLAIN_WORDS.get(written.toLowerCase());
  return plain ? { category: plain, words: written.toLowerCase() } : { category: "unknown", words: written };
}

/**
 * Whether the state's table gives the status a meaning: a status it leaves out decodes to "unknown"
 * as the status as written; one it gives "unknown" has words saying what the record is instead.
 */
export function statusInTable(table: DecodingTable | null, status: string): boolean {
  return table !== null && statusIndex(table).has(status.trim().toLowerCase());
}

/** The state's meaning of a status where it says more than the status itself ("on the SLA's list of active licenses"); else null. */
export function statusGloss(table: DecodingTable | null, status: string): string | null {
  const { words } = statusCategory(table, status);
  return statusInTable(table, status) && words.toLowerCase() !== status.trim().toLowerCase() ? words : null;
}

export type CodeName = { name: string } | { unknown: true };

/** The name a state's table gives a license type or class code; unknown when it has none. */
export function codeName(table: DecodingTable | null, kind: CodeKind, code: string): CodeName {
  const name = table?.codes[kind]?.names[code.trim()];
  return name === undefined ? { unknown: true } : { name };
}

/**
 * Each code of a list as a license gives it ("41, 58": a California license holding two types). A
 * list with semicolons is split at them alone, and a value the table names whole is one code: a
 * Washington privilege list is "DOMESTIC WINERY < 250,000 LITERS; CATERING".
 */
export function codeNames(table: DecodingTable | null, kind: CodeKind, codes: string): ({ code: string } & CodeName)[] {
  const whole = codeName(table, kind, codes);
  if ("name" in whole) return [{ code: codes.trim(), ...whole }];
  return codes
    .split(codes.includes(";") ? ";" : ",")
    .map((code) => code.trim())
    .filter((code) => code !== "")
    .map((code) => ({ code, ...codeName(table, kind, code) }));
}
