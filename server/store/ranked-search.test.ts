import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_RESULTS } from "../../src/contract/envelopes.ts";
import type { SearchField } from "../../src/contract/search-query.ts";
import { licenseFixture } from "../testing/license-fixture.ts";
import type { LicenseRecord } from "./license-record.ts";
import { createLicenseRepo } from "./license-repo.ts";
import type { RankedSearchOptions } from "./ranked-search.ts";
import { openDatabase } from "./open-database.ts";
import { replaceState } from "./replace-state.ts";
import { compareRanked, INSIDE_A_WORD, matchTier, type Ranked } from "./search-ranking.ts";
import { words } from "../../src/contract/normalize-text.ts";
import { withInitials } from "./close-match.ts";
import { allowedEdits, editDistance } from "./near-words.ts";
import {
  fieldKey,
  FIELDS_BY,
  searchTerms,
  termsOf,
  type KeyField,
  type QueryWord,
  type SearchTerms,
} from "./search-terms.ts";

/** The ranking rule applied by brute force: every record, every field, sorted; all of them. */
function rankedByRule(records: LicenseRecord[], by: SearchField, terms: SearchTerms): (Ranked & { license: string })[] {
  const ranked: Ranked[] = [];
  for (const r of records) {
    const options = FIELDS_BY[by].flatMap((field, index) => {
      const key = fieldKey(field, fieldText(r, field));
      const tier = matchTier(key, terms);
      return tier === null
        ? []
        : [{ tier, field: index, active: r.status === "active", length: [...key].length, license: r.license }];
    });
    const best = options.sort(compareRanked)[0];
    if (best) ranked.push(best);
  }
  return ranked.sort(compareRanked);
}

const fieldText = (r: LicenseRecord, field: KeyField) =>
  ({ business: r.business, owner: r.owner, address: r.address.line_1 })[field];

/**
 * The widenings of close-match.ts, by brute force over the records' words: first each word that starts
 * no word of the fields stands for the 12 nearest words of letters within its edits (and initials are
 * one word), then every word of 4 letters or more for those as well as itself.
 */
function* widenings(records: LicenseRecord[], by: SearchField, terms: SearchTerms): Generator<SearchTerms> {
  const fieldWords = records.flatMap((r) => FIELDS_BY[by].flatMap((f) => words(fieldKey(f, fieldText(r, f)))));
  const vocabulary = [...new Set(fieldWords.filter((w) => w.length >= 3 && !/\d/.test(w)))];
  const startsAWord = (form: string) => fieldWords.some((w) => w.startsWith(form));
  const nearWords = (typed: string) => {
    const max = allowedEdits(typed);
    return vocabulary
      .map((w) => ({ w, edits: editDistance(typed, w, max) }))
      .filter((n) => n.edits > 0 && n.edits <= max)
      .sort((a, b) => a.edits - b.edits || (a.w < b.w ? -1 : 1))
      .slice(0, 12)
      .map((n) => n.w);
  };
  const typo = (word: QueryWord) => !word.forms[0]!.includes(" ") && allowedEdits(word.forms[0]!) > 0;
  const held = (word: QueryWord) => !terms.words.includes(word) || !typo(word) || word.forms.some(startsAWord);
  const initials = withInitials(terms.words, startsAWord);
  const misspelt: QueryWord[] = [];
  for (const word of initials.words) {
    if (held(word)) {
      misspelt.push(word);
      continue;
    }
    const near = nearWords(word.forms[0]!);
    if (near.length === 0) return;
    misspelt.push({ forms: near, whole: near });
  }
  if (initials.changed || misspelt.some((w, i) => w !== initials.words[i])) yield termsOf(misspelt);
  const everyWord = misspelt.map((word, i) => {
    const asTyped = initials.words[i]!;
    if (!terms.words.includes(asTyped) || !held(asTyped) || !typo(word)) return word;
    const near = nearWords(word.forms[0]!).filter((n) => !word.forms.includes(n));
    return near.length === 0 ? word : { forms: [...word.forms, ...near], whole: [...word.whole, ...near] };
  });
  if (everyWord.some((w, i) => w !== misspelt[i])) yield termsOf(everyWord);
}

/**
 * The rule with typo tolerance, by brute force: the matches as typed; then, while there are fewer than
 * 10 and none better than a word inside another, each widening's matches after those found before.
 */
function expectedOrder(records: LicenseRecord[], by: SearchField, q: string): string[] {
  const terms = searchTerms(by, q);
  if (!terms) return [];
  const exact = rankedByRule(records, by, terms);
  let found = exact.slice(0, MAX_RESULTS).map((r) => r.license);
  let best = exact[0]?.tier ?? null;
  const enough = () => found.length >= MAX_RESULTS || (best !== null && best < INSIDE_A_WORD);
  if (enough()) return found;
  for (const close of widenings(records, by, terms)) {
    const more = rankedByRule(records, by, close).filter((r) => !found.includes(r.license));
    if (more[0] && (best === null || more[0].tier < best)) best = more[0].tier;
    found = [...found, ...more.map((r) => r.license)].slice(0, MAX_RESULTS);
    if (enough()) break;
  }
  return found;
}

/**
 * Ranked search changes strategy with the number of matches; on small test data these settings
 * make each strategy the one that runs, so every one is held to the plain rule.
 */
const STRATEGIES: Record<string, RankedSearchOptions> = {
  "by default": {},
  "tier by tier, starters from word-start matches": { allAtOnce: 0, fewStarters: 0 },
  "tier by tier, starters by FTS5 ^ after a short scan": {
    allAtOnce: 0,
    fewStarters: 0,
    startScan: 1,
    manyStarters: 0,
  },
  "tier by tier, starters off the key index after a short scan": {
    allAtOnce: 0,
    fewStarters: 0,
    startScan: 1,
    manyStarters: 1000,
  },
  "tier by tier, starters off the key index": { allAtOnce: 0, fewStarters: 1000 },
  "several words from the trigram index only": { allAtOnce: 0, mostHoldingWords: 0 },
  "several words from whole words when each is held by one": { allAtOnce: 0, mostHoldingWords: 1 },
  "several words, one row of the words held by few before every word's query": {
    allAtOnce: 0,
    mostHoldingWords: 1,
    wordScan: 1,
  },
};

async function storeOf(records: LicenseRecord[], options: RankedSearchOptions = {}) {
  const db = openDatabase(":memory:");
  await replaceState(db, { state: "ny", source: "test", asOf: null }, records);
  const repo = createLicenseRepo(db, options);
  return {
    search: (by: SearchField, q: string) =>
      repo.search({ state: "ny", by, q }).map((doc) => (JSON.parse(doc) as LicenseRecord).license),
    close: () => db.close(),
  };
}

const rec = (
  license: string,
  business: string,
  owner = "SOMEONE ELSE LLC",
  line_1 = "1 NOWHERE RD",
  status = "active",
) => licenseFixture({ license, business, owner, status, address: { line_1 } });

describe.each(Object.entries(STRATEGIES))("ranking table, %s", (_name, options) => {
  const records = [
    rec("A01", "DEAD RABBIT"),
    rec("A02", "DEAD RABBIT TAVERN", "DRT GROUP LLC", "30 WATER STREET"),
    rec("A03", "THE DEAD RABBIT GROCERY"),
    rec("A04", "RABBIT HOLE OF THE DEAD"),
    rec("A05", "DEADWOOD GRABBIT"),
    rec("A06", "DEAD RABBIT", "X", "1 NOWHERE RD", "expired"),
    rec("A07", "DEAD RABBITS", "X", "1 NOWHERE RD"),
    rec("A08", "SUNNY SIDE", "DEAD RABBIT HOLDINGS"),
    rec("A09", "JOE'S BAR & GRILL", "JOSEPH DOE", "915 3RD AVE"),
    rec("A10", "JOES BAR AND GRILL", "X", "915 THIRD AVENUE"),
    rec("A11", "CAFÉ ROYALE", "X", "1200 N MAIN ST"),
    rec("A12", "100% AGAVE_BAR", "X", "30 WATER ST"),
    rec("A13", "OR NEAR BAR", "X", "130 WATER ST"),
    rec("A14", "GARABITO"),
    rec("A15", "BLAK OPS"),
    rec("A16", "BLACK CAT TAVERN"),
  ];
  let store: Awaited<ReturnType<typeof storeOf>>;
  beforeAll(async () => (store = await storeOf(records, options)));
  afterAll(() => store.close());

  it.each([
    // equal (active before expired), starts with (shorter first; business before owner), word starts
    // in order, in any order, inside a word
    ["name", "dead rabbit", ["A01", "A06", "A07", "A02", "A08", "A03", "A04", "A05"]],
    // RABBIT HOLE starts with it; then word starts: actives by length, the expired one, the owner; inside a word last
    ["name", "rabb", ["A04", "A01", "A07", "A02", "A03", "A06", "A08", "A05"]],
    ["name", "drt", ["A02"]],
    ["name", "joes", ["A09", "A10"]],
    ["name", "JOE'S BAR & GRILL", ["A09", "A10"]],
    ["name", "bar and grill", ["A09", "A10"]],
    ["name", "cafe", ["A11"]],
    ["name", "café", ["A11"]],
    ["name", "%", []],
    ["name", "_", []],
    ["name", "100%", ["A12"]],
    ["name", "agave_bar", ["A12"]],
    ["name", 'near" OR "bar', ["A13"]],
    ["name", "*", []],
    ["name", "-dead", ["A01", "A07", "A05", "A02", "A06", "A08", "A03", "A04"]],
    ["name", "^", []],
    ["address", "30 water st", ["A02", "A12"]],
    ["address", "30 water street", ["A02", "A12"]],
    ["address", "water", ["A02", "A12", "A13"]],
    ["address", "915 third ave", ["A09", "A10"]],
    ["address", "1200 north main street", ["A11"]],
    ["address", "n main", ["A11"]],
    ["name", "zzyzx", []],
    // The order typed does not count: the same tiers, the same results.
    ["name", "rabbit dead", ["A01", "A06", "A07", "A02", "A08", "A03", "A04", "A05"]],
    ["name", "rab dead", ["A01", "A07", "A02", "A06", "A08", "A03", "A04", "A05"]],
    ["address", "street water 30", ["A02", "A12"]],
    // BLAK is a word of the data, and no record holds it with "cat": it stands for its near words too.
    ["name", "blak cat", ["A16"]],
    // Found only inside GARABITO as typed, so its near words follow: RABBIT, as "rabb" ranks it.
    ["name", "rabit", ["A14", "A04", "A01", "A07", "A02", "A03", "A06", "A08", "A05"]],
  ] as const)("%s %j", (by, q, expected) => {
    expect(store.search(by, q)).toEqual(expected);
    expect(expectedOrder(records, by, q)).toEqual(expected);
  });
});

describe.each(Object.entries(STRATEGIES))("the limit of 10, %s", (_name, options) => {
  it("holds when a later tier's held-back matches would overflow it", async () => {
    // "abbit ead": every business holds both words inside others (tier 3), and so does one owner.
    const records = [
      ...Array.from({ length: 10 }, (_, i) => rec(`B${i}`, `DEAD RABBIT ${i}`)),
      rec("O1", "SOMETHING ELSE", "DEAD RABBIT OWNER"),
    ];
    const store = await storeOf(records, options);
    expect(store.search("name", "abbit ead")).toEqual(expectedOrder(records, "name", "abbit ead"));
    expect(store.search("name", "abbit ead")).toHaveLength(10);
    store.close();
  });
});

describe.each(Object.entries(STRATEGIES))("many rows starting with the query, %s", (_name, options) => {
  it("returns the best 10 by rank, not the first 10 in name order", async () => {
    // Alphabetically the long names come first; by rank (shorter first) they come last.
    const records = Array.from({ length: 16 }, (_, i) =>
      rec(`H${String(i).padStart(2, "0")}`, `HARBOR ${String.fromCharCode(65 + i)}${"X".repeat(15 - i)}`),
    );
    const store = await storeOf(records, { ...options, fewStarters: options.fewStarters === 0 ? 0 : 100 });
    expect(store.search("name", "harbor")).toEqual(expectedOrder(records, "name", "harbor"));
    expect(store.search("name", "harbor")).toContain("H15");
    store.close();
  });
});

describe.each(Object.entries(STRATEGIES))("ranked search against the plain rule, %s", (_name, options) => {
  const vocabulary = [
    "dead",
    "rabbit",
    "rabbits",
    "red",
    "bar",
    "barn",
    "tavern",
    "joe's",
    "&",
    "and",
    "café",
    "cafe",
    "st",
    "street",
    "n",
    "north",
    "1st",
    "first",
    "ave",
    "the",
    "a",
    "30",
    "130",
    "water",
    "grill",
    "x",
    // Words of the data one edit from others: a clerk's typo that is itself a word (dead, water, barn).
    "deal",
    "wafer",
    "bran",
  ];
  const phrase = fc
    .array(fc.constantFrom(...vocabulary), { minLength: 1, maxLength: 4 })
    .map((w) => w.join(" ").toUpperCase());
  const record = fc.record({ business: phrase, owner: phrase, line_1: phrase, active: fc.boolean() });
  // A word as a clerk mistypes it: a letter dropped, added, changed, or two neighbours swapped.
  const typo = fc
    .tuple(fc.constantFrom(...vocabulary.filter((w) => w.length >= 4)), fc.nat(), fc.constantFrom(..."aeiorstx"))
    .map(([w, at, letter]) => {
      const i = at % w.length;
      const edits = [
        w.slice(0, i) + w.slice(i + 1),
        w.slice(0, i) + letter + w.slice(i),
        w.slice(0, i) + letter + w.slice(i + 1),
        i + 1 < w.length ? w.slice(0, i) + w[i + 1]! + w[i]! + w.slice(i + 2) : w,
      ];
      return edits[at % 4]!;
    });
  const shuffled = (ws: string[]) => fc.shuffledSubarray(ws, { minLength: ws.length, maxLength: ws.length });
  const query = fc.oneof(
    phrase,
    fc.constantFrom(...vocabulary).map((w) => w.slice(0, 1 + (w.length >> 1))),
    fc.string({ maxLength: 6 }),
    typo,
    fc.tuple(typo, fc.constantFrom(...vocabulary)).map(([t, w]) => `${w} ${t}`),
    // A record's words out of their order, the last perhaps half typed.
    fc
      .array(fc.constantFrom(...vocabulary), { minLength: 2, maxLength: 5 })
      .chain(shuffled)
      .map((ws) => ws.join(" ")),
    fc.tuple(phrase, fc.nat()).map(([p, cut]) => p.slice(0, p.length - (cut % 3))),
  );
  const withRecords = fc
    .array(record, { minLength: 1, maxLength: 60 })
    .map((rows) =>
      rows.map((r, i) =>
        rec(`L${String(i).padStart(3, "0")}`, r.business, r.owner, r.line_1, r.active ? "active" : "expired"),
      ),
    );
  /** Whether a record holds the query's words as typed (in some field), not only their near words. */
  const asTyped = (record: LicenseRecord, by: SearchField, q: string) =>
    FIELDS_BY[by].some((f) => matchTier(fieldKey(f, fieldText(record, f)), searchTerms(by, q)!) !== null);

  it("returns exactly the rule's best 10, in order, the matches as typed before any close one", async () => {
    await fc.assert(
      fc.asyncProperty(withRecords, fc.array(query, { minLength: 1, maxLength: 5 }), async (records, queries) => {
        const store = await storeOf(records, options);
        const byLicense = new Map(records.map((r) => [r.license, r]));
        try {
          for (const q of queries) {
            for (const by of ["name", "address"] as const) {
              const got = store.search(by, q);
              expect(got.length).toBeLessThanOrEqual(MAX_RESULTS);
              expect(got).toEqual(expectedOrder(records, by, q));
              const exact = got.map((license) => asTyped(byLicense.get(license)!, by, q));
              expect(exact).toEqual([...exact].sort((a, b) => Number(b) - Number(a)));
            }
          }
        } finally {
          store.close();
        }
      }),
      { numRuns: 150 },
    );
  });

  // Initials depend on the order typed (single letters in a row are one word), so none here.
  const notInitials = vocabulary.filter((w) => !/^[a-z&]{1,3}$/.test(w));
  it("gives the same results for up to four words in any order", async () => {
    await fc.assert(
      fc.asyncProperty(
        withRecords,
        fc
          .array(fc.oneof(fc.constantFrom(...notInitials), typo), { minLength: 2, maxLength: 4 })
          .chain((ws) => fc.tuple(fc.constant(ws), shuffled(ws))),
        async (records, [typed, reordered]) => {
          const store = await storeOf(records, options);
          try {
            for (const by of ["name", "address"] as const) {
              expect(store.search(by, reordered.join(" "))).toEqual(store.search(by, typed.join(" ")));
            }
          } finally {
            store.close();
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
