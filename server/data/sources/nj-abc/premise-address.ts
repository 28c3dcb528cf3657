/**
 * A premise address as the NJ ABC writes it in one cell, a line each: street, [more street],
 * `CITY, NJ  ZIP`, [`USA`]. The city line comes in many hands: `CITY, NEW JERSEY 08401`,
 * `CITY NJ 08401`, `CITY USA 08340` (the country where the state belongs), `CITY NJ, 08077 USA`,
 * `CITY USA 07311 3988`, or no ZIP at all (`JERSEY CITY USA`).
 */
export interface PremiseAddress {
  line_1: string;
  line_2: string | null;
  city: string | null;
  zip: string;
}

const STATE = String.raw`(?:NJ|NEW JERSEY)`;
const ZIP = String.raw`(\d{5})(?:[-\s]?(\d{4}))?`;
const MARK = String.raw`(?:${STATE}(?:[\s,]+USA)?|USA)`;
const CITY_LINE = new RegExp(String.raw`^(.+?)[\s,]+${MARK}[\s,]+${ZIP}(?:[\s,]+USA)?$`, "i");
const CITY_LINE_NO_ZIP = new RegExp(String.raw`^(.+?)[\s,]+${MARK}$`, "i");
// One line with no break before the city: only the state and ZIP can be told from the street.
const STATE_ZIP_TAIL = new RegExp(String.raw`^(.+?)[\s,]+${STATE}[\s,]+${ZIP}(?:[\s,]+USA)?$`, "i");
// A pocket license (held, not in use) has no premises; the ABC writes "POCKET / USA" there.
const POCKET = /^POCKET(?:\s+USA)?$/i;

/** A city name has no digits: `ROOM 533C` or `STORE 420A CROSS KEYS COMMONS` is a street detail. */
export function isCityName(text: string): boolean {
  return text !== "" && !/\d/.test(text);
}

export function parsePremiseAddress(text: string): PremiseAddress {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "" && l.toUpperCase() !== "USA");
  if (lines.length === 1 && POCKET.test(lines[0]!)) lines.pop();
  if (lines.length === 1) {
    const tail = STATE_ZIP_TAIL.exec(lines[0]!);
    if (tail) return { line_1: tail[1]!.replace(/,$/, ""), line_2: null, city: null, zip: zipOf(tail[2]!, tail[3]) };
  }
  // The city line is the last, but for a few addresses with more street lines after it.
  for (let i = lines.length - 1; i > 0; i--) {
    const match = CITY_LINE.exec(lines[i]!) ?? CITY_LINE_NO_ZIP.exec(lines[i]!);
    if (!match) continue;
    const city = match[1]!.replace(/,$/, "");
    const street = [...lines.slice(1, i), ...(isCityName(city) ? [] : [city]), ...lines.slice(i + 1)];
    return {
      line_1: lines[0]!,
      line_2: street.length ? street.join(", ") : null,
      city: isCityName(city) ? city : null,
      zip: match[2] ? zipOf(match[2], match[3]) : "",
    };
  }
  return { line_1: lines[0] ?? "", line_2: lines.length > 1 ? lines.slice(1).join(", ") : null, city: null, zip: "" };
}

function zipOf(five: string, four: string | undefined): string {
  return four ? `${five}-${four}` : five;
}
