// A line that ends or starts like this goes on with the name before it
// ("TAQUERIA LA MEXICANITA RESTAURANT AND" / "BAR"); any other line is a trade name of its own
// ("KINGS FOOD MARKET" / "KINGS").
const ENDS_UNFINISHED = /(?:\b(?:AND|OF|THE|BY|AT|WITH|FOR|IN|ON)|[&,+\-/])$/i;
const STARTS_AS_CONTINUATION = /^(?:(?:AND|OF|BY|AT|WITH|FOR)\b|[&+\-/])/i;

/**
 * A name the NJ ABC wrote over several lines of one cell: the lines of one name joined with a
 * space, several trade names with "; ".
 */
export function nameFromLines(text: string): string {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.reduce(
    (name, line) =>
      name === ""
        ? line
        : `${name}${ENDS_UNFINISHED.test(name) || STARTS_AS_CONTINUATION.test(line) ? " " : "; "}${line}`,
    "",
  );
}
