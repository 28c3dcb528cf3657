import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SearchField } from "../src/contract/search-query.ts";
import type { Db } from "../server/store/open-database.ts";
import { BENCH_DIR } from "./build-bench-db.ts";
import { Vocabulary } from "../server/store/near-words.ts";
import { liveRowsTable, naiveMatchCount, naiveTogetherCount } from "./naive-search.ts";

export interface MixQuery {
  /** The query class, as the results table names it. */
  label: string;
  by: SearchField;
  q: string;
}

const RARE = { min: 2, max: 5 };
/** Bumped when the classes change, so a saved mix of an older set is chosen again. */
const MIX_VERSION = 4;
const MIX_FILE = join(BENCH_DIR, "query-mix.json");

/** The mix of this build of the data: choosing it reads every row, so it is kept beside the database. */
export function queryMixOf(db: Db, state: string, build: string): MixQuery[] {
  if (existsSync(MIX_FILE)) {
    const saved = JSON.parse(readFileSync(MIX_FILE, "utf8")) as {
      build: string;
      state: string;
      version?: number;
      mix: MixQuery[];
    };
    if (saved.build === build && saved.state === state && saved.version === MIX_VERSION) return saved.mix;
  }
  const mix = chooseQueryMix(db, state);
  writeFileSync(MIX_FILE, JSON.stringify({ build, state, version: MIX_VERSION, mix }));
  return mix;
}

/**
 * The fixed query mix, picked from the data itself so that it means the same on any build:
 * the commonest name word, a word a handful of records hold, the commonest word pair, the
 * commonest house number on the commonest street, a word nothing holds, one- and
 * two-letter word starts, the commonest three words, typos of a rare word, a long word and a pair,
 * the commonest name opening with initials, typed together, the commonest pair and three words out of
 * their order, and a common pair with one word mistyped into another word of the data that no record
 * holds with the other. Ties break alphabetically, so the same data gives the same mix.
 */
export function chooseQueryMix(db: Db, state: string): MixQuery[] {
  const rows = liveRowsTable(db, state);
  const words = new Map<string, number>();
  const pairs = new Map<string, number>();
  const triples = new Map<string, number>();
  const initials = new Map<string, number>();
  const starts1 = new Map<string, number>();
  const starts2 = new Map<string, number>();
  const names = db.prepare(`SELECT business_key, owner_key FROM ${rows}`).raw().iterate() as Iterable<string[]>;
  for (const keys of names) {
    for (const key of keys) {
      const ws = key.split(" ");
      ws.forEach((w, i) => {
        bump(words, w);
        bump(starts1, w.slice(0, 1));
        if (w.length >= 2) bump(starts2, w.slice(0, 2));
        if (i > 0 && isWord(ws[i - 1]!) && isWord(w)) bump(pairs, `${ws[i - 1]} ${w}`);
        if (i > 1 && isWord(ws[i - 2]!) && isWord(ws[i - 1]!) && isWord(w))
          bump(triples, `${ws[i - 2]} ${ws[i - 1]} ${w}`);
        // A name that opens with initials (`p js tavern`), typed as a clerk types them: `pjs tavern`.
        if (i === 2 && /^[a-z]$/.test(ws[0]!) && /^[a-z]{1,2}$/.test(ws[1]!) && isWord(w))
          bump(initials, `${ws[0]}${ws[1]} ${w}`);
      });
    }
  }
  const streets = new Map<string, number>();
  const addresses = new Map<string, number>();
  for (const key of db.prepare(`SELECT address_key FROM ${rows}`).pluck().iterate() as Iterable<string>) {
    const [number, ...street] = key.split(" ");
    if (!/^\d+$/.test(number!) || street.length === 0) continue;
    bump(streets, street.join(" "));
    bump(addresses, key);
  }
  const street = top(streets);
  const address = top(new Map([...addresses].filter(([key]) => key.endsWith(` ${street}`))));
  // As a clerk types it: the line as the source wrote it (`30 WATER ST`), not its indexed form.
  const line1 = db
    .prepare(`SELECT json_extract(doc, '$.address.line_1') FROM ${rows} WHERE address_key = ? ORDER BY id LIMIT 1`)
    .pluck()
    .get(address) as string;

  const rare = [...words]
    .filter(([w, n]) => n >= RARE.min && n <= RARE.max && w.length >= 4 && isWord(w))
    .map(([w]) => w)
    .sort()
    .find((w) => naiveMatchCount(db, rows, "name", w) <= 10);
  const nothing = ["zqxjv", "qvzzkx", "xjqqzv"].find((w) => naiveMatchCount(db, rows, "name", w) === 0);
  if (!rare || !nothing) throw new Error(`no rare or no absent word in ${state}: is the bench database complete?`);

  const common = top(new Map([...words].filter(([w]) => isWord(w))));
  const long = top(new Map([...words].filter(([w]) => isWord(w) && w.length >= 8)));
  // A pair a clerk would type (`new york`), not the common word again (`wine and`).
  const pair = top(new Map([...pairs].filter(([p]) => !p.split(" ").includes(common))));
  const triple = top(triples).split(" ");
  return [
    { label: "common word", by: "name", q: common },
    { label: "rare word", by: "name", q: rare },
    { label: "two words", by: "name", q: pair },
    { label: "number + street", by: "address", q: line1 },
    { label: "no match", by: "name", q: nothing },
    { label: "one character", by: "name", q: top(starts1) },
    { label: "two characters", by: "name", q: top(starts2) },
    { label: "three words", by: "name", q: top(triples) },
    // As a clerk mistypes: neighbours swapped in a word a handful of records hold (one edit)...
    { label: "typo, one edit", by: "name", q: swapped(rare) },
    // ...a long common word with a letter dropped and two swapped (two edits), and a typo in a pair.
    { label: "typo, two edits", by: "name", q: dropped(swapped(long)) },
    { label: "two words, one typo", by: "name", q: `${pair.split(" ")[0]} ${swapped(pair.split(" ")[1]!)}` },
    { label: "initials together", by: "name", q: top(initials) },
    { label: "two words, out of order", by: "name", q: pair.split(" ").reverse().join(" ") },
    // Each word moved: the last typed first (`grocery deli and`).
    { label: "three words, out of order", by: "name", q: [triple[2], triple[0], triple[1]].join(" ") },
    { label: "two words, no record holds both", by: "name", q: realWordTypo(db, rows, words, pairs, common) },
  ];
}

/**
 * A common pair with one word mistyped into another word of the data, one edit away (`food mark` for
 * `food mart`), that no record holds in one field with the other word; the word meant is among the
 * near words the service takes the mistyped one for.
 */
function realWordTypo(
  db: Db,
  rows: string,
  words: Map<string, number>,
  pairs: Map<string, number>,
  common: string,
): string {
  const vocabulary = new Vocabulary([...words.keys()].filter((w) => isWord(w)));
  const byCount = [...pairs]
    .filter(([p]) => !p.split(" ").includes(common))
    .sort(([a, m], [b, n]) => n - m || (a < b ? -1 : 1));
  for (const [p] of byCount.slice(0, 50)) {
    const pairWords = p.split(" ");
    for (const [at, meant] of pairWords.entries()) {
      const other = pairWords[1 - at]!;
      const typos = vocabulary
        .near(meant, Infinity)
        .filter((n) => n.edits === 1 && n.word.length >= 4)
        .map((n) => n.word)
        .filter((typo) => vocabulary.near(typo, 12).some((n) => n.word === meant));
      const typo = typos.find((t) => naiveTogetherCount(db, rows, t, other) === 0);
      if (typo) return pairWords.map((w, i) => (i === at ? typo : w)).join(" ");
    }
  }
  throw new Error("no common pair has a word mistyped into another that no record holds with the other");
}

/** `rabbit` -> `rbabit`: the second and third letters swapped. */
function swapped(word: string): string {
  return `${word[0]}${word[2]}${word[1]}${word.slice(3)}`;
}

/** `restaurant` -> `restaurnt`: the third letter from the end dropped. */
function dropped(word: string): string {
  return `${word.slice(0, -3)}${word.slice(-2)}`;
}

/** A word of at least three letters: shorter ones are the one- and two-character classes. */
const isWord = (w: string) => w.length >= 3 && /^[a-z]+$/.test(w);

function bump(counts: Map<string, number>, key: string) {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

function top(counts: Map<string, number>): string {
  let best: [string, number] | undefined;
  for (const entry of counts) {
    if (!best || entry[1] > best[1] || (entry[1] === best[1] && entry[0] < best[0])) best = entry;
  }
  if (!best) throw new Error("no data to choose a query from");
  return best[0];
}
