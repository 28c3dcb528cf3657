/** A slot of a state's number format (its decoding table's `number.format`): 9s are digits, As letters. */
const SLOT = /9+|A+/g;
/** The groups of a number as a clerk wrote it: runs of digits or of letters; anything else only separates. */
const GROUP = /[0-9]+|[A-Za-z]+/g;

/** The numbers a clerk probably meant, in the state's own format, never the number as given; [] when the format is unknown or nothing near fits. */
export function nearNumbers(given: string, format: string | null): string[] {
  const slots = format?.match(SLOT) ?? [];
  let groups: string[] = given.match(GROUP) ?? [];
  if (format === null || slots.length === 0 || groups.length === 0) return [];

  // Written without separators (0101330050003): cut at the format's widths from the left, the last
  // slot taking the rest. Only for an all-digit format, and never when shorter than the format:
  // where the missing zeros go would be a guess.
  const [digits = ""] = groups;
  if (groups.length === 1 && slots.length > 1 && /^[0-9]+$/.test(digits) && !format.includes("A")) {
    if (digits.length < slots.join("").length) return [];
    const starts = slots.map((_, i) => slots.slice(0, i).join("").length);
    groups = starts.map((start, i) => digits.slice(start, starts[i + 1]));
  }

  // Otherwise each group fills one slot, in order: no group left over, no slot left empty.
  if (groups.length !== slots.length) return [];
  const filled = slots.map((slot, i) => {
    const group = groups[i] ?? "";
    // A letter slot takes letters of its exact width, upper-cased: a missing letter cannot be guessed.
    if (slot.startsWith("A"))
      return /^[A-Za-z]+$/.test(group) && group.length === slot.length ? group.toUpperCase() : null;
    if (!/^[0-9]+$/.test(group)) return null;
    // Too wide: only surplus leading zeros may go (0003 is 3 written wide); a significant digit never does.
    const surplus = group.slice(0, Math.max(0, group.length - slot.length));
    if (/[1-9]/.test(surplus)) return null;
    // Too narrow: the leading zeros a spreadsheet or a hurried clerk dropped (12345 is 0012345).
    return group.slice(surplus.length).padStart(slot.length, "0");
  });
  if (filled.includes(null)) return [];

  let slot = 0;
  const near = format.replace(SLOT, () => filled[slot++] ?? "");
  // The number as given is the number, not a near one.
  return near === given.trim() ? [] : [near];
}

/** Whether `given` is written exactly in the state's number format (`9` a digit, `A` a letter, the rest as written). */
export function matchesNumberFormat(given: string, format: string | null): boolean {
  if (format === null) return false;
  const pattern = format
    .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    .replace(/9/g, "[0-9]")
    .replace(/A/g, "[A-Za-z]");
  return new RegExp(`^${pattern}$`).test(given.trim());
}
