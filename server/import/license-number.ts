import { RowProblem } from "./row-outcome.ts";

/** A license number exactly as the source writes it (leading zeros, dashes), only surrounding spaces trimmed. */
export function licenseNumber(text: string): string {
  if (text === "") throw new RowProblem("no license number");
  return text;
}
