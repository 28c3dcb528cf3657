/**
 * The text of a CSV field or a spreadsheet cell, trimmed. Spreadsheet cells can hold numbers,
 * dates, rich text, hyperlinks and formulas; each is reduced to the text a person sees.
 */
export function cellText(value: unknown): string {
  if (typeof value === "string") return value.trim();
  if (value === null || value === undefined) return "";
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === "object") {
    const cell = value as { richText?: { text: string }[]; text?: unknown; result?: unknown };
    if (Array.isArray(cell.richText))
      return cell.richText
        .map((r) => r.text)
        .join("")
        .trim();
    if ("text" in cell) return cellText(cell.text);
    if ("result" in cell) return cellText(cell.result);
  }
  return "";
}

/** A text, or null when it is empty or one of the source's words for "nothing here". */
export function presentText(text: string, absent: ReadonlySet<string> = NO_VALUE): string | null {
  return text === "" || absent.has(text.toUpperCase()) ? null : text;
}

const NO_VALUE: ReadonlySet<string> = new Set();
