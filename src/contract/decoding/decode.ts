import ca from "./ca.json";
import ma from "./ma.json";
import nj from "./nj.json";
import ny from "./ny.json";
import { DecodingTableSchema, type CodeKind, type DecodingTable, type StatusCategory } from "./decoding-table.ts";

/** Shown beside a code the state's table does not name. */
export const CODE_NOT_IN_TABLE = "code not in our table";

/** The tables, checked once when first imported: a bad edit to a JSON file fails every test that decodes. */
export const DECODING_TABLES: ReadonlyMap<string, DecodingTable> = new Map(
  [ca, ma, nj, ny].map((raw) => {
    const table = DecodingTableSchema.parse(raw);
    return [table.state, table];
  }),
);

const STATUS_INDEX = new Map(
  [...DECODING_TABLES].map(([state, table]) => [
    state,
    new Map(table.statuses.flatMap((entry) => entry.values.map((value) => [value.toLowerCase(), entry] as const))),
  ]),
);

export interface DecodedStatus {
  category: StatusCategory;
  /** The state's meaning in plain words; a status not in the table is shown as written. */
  words: string;
}

/** What a license's status means in its state: in force, not in force, pending, or unknown. */
export function statusCategory(state: string, status: string): DecodedStatus {
  const written = status.trim();
  const entry = STATUS_INDEX.get(state.toLowerCase())?.get(written.toLowerCase());
  return entry ? { category: entry.category, words: entry.words } : { category: "unknown", words: written };
}

export type CodeName = { name: string } | { unknown: true };

/** The name a state gives a license type or class code; unknown when its table has none. */
export function codeName(state: string, kind: CodeKind, code: string): CodeName {
  const name = DECODING_TABLES.get(state.toLowerCase())?.codes[kind]?.names[code.trim()];
  return name === undefined ? { unknown: true } : { name };
}

/** Each code of a list as a license gives it ("41, 58": a California license holding two types). */
export function codeNames(state: string, kind: CodeKind, codes: string): ({ code: string } & CodeName)[] {
  return codes
    .split(",")
    .map((code) => code.trim())
    .filter((code) => code !== "")
    .map((code) => ({ code, ...codeName(state, kind, code) }));
}
