import { RowProblem } from "./source-adapter.ts";

// Field readers several agencies share.

/** A license number exactly as the source writes it (leading zeros, dashes), only surrounding spaces trimmed. */
export function licenseNumber(text: string): string {
  if (text === "") throw new RowProblem("no license number");
  return text;
}

/** A source's raw status words (upper case) and the contract's lower-case word for each. */
export type StatusTable = Readonly<Record<string, string>>;

/** The status word for a raw status: the table's word, else the raw status lower-cased, never dropped. */
export function mapStatus(raw: string, table: StatusTable): string {
  const trimmed = raw.trim();
  return table[trimmed.toUpperCase()] ?? trimmed.toLowerCase();
}
