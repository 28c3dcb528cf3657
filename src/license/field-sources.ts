import type { FieldSource, Provenance, Source } from "../contract/envelopes.ts";
import { formatIsoDate } from "../contract/calendar-date.ts";

type Field = FieldSource["field"];

/** The facts of the license page each field fills, in the page's order: the address fills two. */
const FACTS: [Field, string[]][] = [
  ["business", ["business name"]],
  ["owner", ["owner"]],
  ["phone", ["phone"]],
  ["address", ["address", "county"]],
  ["status", ["status"]],
  ["type", ["type"]],
  ["class", ["class"]],
  ["description", ["description"]],
  ["effective", ["effective date"]],
  ["expires", ["expiry date"]],
  ["issued_original", ["first issue date"]],
  ["issued_latest", ["last issue date"]],
];

/** An older list a record takes fields from, with the facts it fills, in the page's order. */
export interface OlderList {
  source: Source;
  asOf: string | null;
  facts: string[];
}

/** Where a field comes from when an older list gives it; undefined where it is the record's own source's, or unsaid. */
export function fieldSource(provenance: Provenance | null, field: Field): FieldSource | undefined {
  return provenance?.fields?.find((f) => f.field === field);
}

/** "From the 2016 list (as of January 14, 2016)": beside a field, on screen and on paper. */
export function fromOlderList(from: FieldSource): string {
  return `From ${listWords(from.as_of ?? from.source.as_of)}`;
}

/** The older lists a record takes fields from, each once, newest first. */
export function olderLists(provenance: Provenance | null): OlderList[] {
  const lists = new Map<number, OlderList>();
  for (const [field, facts] of FACTS) {
    const from = fieldSource(provenance, field);
    if (!from) continue;
    const list = lists.get(from.source.id);
    if (list) list.facts.push(...facts);
    else lists.set(from.source.id, { source: from.source, asOf: from.as_of ?? from.source.as_of, facts: [...facts] });
  }
  return [...lists.values()].sort((a, b) => (b.asOf ?? "").localeCompare(a.asOf ?? ""));
}

/**
 * "The address, county, type and description are from the 2016 list (as of January 14, 2016): the list of July
 * 30, 2019 does not give them." Said beside the record's source and date, so that no one reads that date as every field's.
 */
export function olderFieldsSentence(provenance: Provenance | null, recordAsOf: string | null): string | null {
  const lists = olderLists(provenance);
  if (lists.length === 0) return null;
  const newest = recordAsOf ? `the list of ${formatIsoDate(recordAsOf)}` : "the newest list";
  const many = lists.some((list) => list.facts.length > 1) || lists.length > 1;
  const each = lists.map(
    (list) => `the ${inWords(list.facts)} ${list.facts.length > 1 ? "are" : "is"} from ${listWords(list.asOf)}`,
  );
  return `${upperFirst(inWords(each, "; "))}: ${newest} does not give ${many ? "them" : "it"}.`;
}

/** "Address, county, type and description": what an older list fills, as a label. */
export function factsLabel(list: OlderList): string {
  return upperFirst(inWords(list.facts));
}

/** "the 2016 list (as of January 14, 2016)" */
function listWords(asOf: string | null): string {
  return asOf ? `the ${asOf.slice(0, 4)} list (as of ${formatIsoDate(asOf)})` : "an older list (its date not given)";
}

/** "address, county, type and description" */
function inWords(items: readonly string[], separator = ", "): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(separator)} and ${items.at(-1)}`;
}

function upperFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
