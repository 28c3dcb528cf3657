/** The parts of a premise address the NJ ABC writes as lines: street, [more street], `CITY, NJ  ZIP`, `USA`. */
export interface PremiseAddress {
  line_1: string;
  line_2: string | null;
  city: string | null;
  zip: string;
}

const CITY_LINE = /^(.*?),?\s+NJ\s+(\d{5}(?:-\d{4})?)$/i;

export function parsePremiseAddress(text: string): PremiseAddress {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  if (lines.at(-1)?.toUpperCase() === "USA") lines.pop();
  const cityLine = lines.length > 1 ? CITY_LINE.exec(lines.at(-1)!) : null;
  if (cityLine) lines.pop();
  return {
    line_1: lines[0] ?? "",
    line_2: lines.length > 1 ? lines.slice(1).join(", ") : null,
    city: cityLine ? cityLine[1]!.trim() : null,
    zip: cityLine ? cityLine[2]! : "",
  };
}
