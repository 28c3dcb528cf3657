import type { Address } from "../contract/license.ts";

/**
 * The lines of an address as they are given, without the commas and blanks of missing parts (a
 * New Jersey record may give no street or city); empty when it gives nothing but its state.
 */
export function addressLines(address: Address): string[] {
  const place = [address.city.trim(), [address.state, address.zip.trim()].filter(Boolean).join(" ")]
    .filter(Boolean)
    .join(", ");
  const lines = [
    address.line_1.trim(),
    address.line_2?.trim() ?? "",
    address.city.trim() || address.zip.trim() ? place : "",
  ];
  return lines.filter(Boolean);
}
