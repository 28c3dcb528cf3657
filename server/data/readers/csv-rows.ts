import Papa from "papaparse";
import type { Readable } from "node:stream";
import type { RawRow } from "./table.ts";

/** Rows parsed ahead of the consumer before the parser is paused. */
const HIGH_WATER = 2000;

function breaksIn(cells: string[]): number {
  let n = 0;
  for (const cell of cells) for (let i = cell.indexOf("\n"); i !== -1; i = cell.indexOf("\n", i + 1)) n++;
  return n;
}

/**
 * The records of a CSV stream, each with the line it starts on (quoted fields may span lines).
 * Blank lines are skipped; a record with broken quoting becomes a problem row, in its place,
 * naming the lines it covers. PapaParse, several times csv-parse's speed here. Its step callback, not its
 * Node stream (Papa.NODE_STREAM_INPUT), which passes rows on without their errors: a broken quote would
 * come out as a row of run-together cells instead of a problem naming its lines.
 */
export async function* csvRows(input: Readable): AsyncGenerator<RawRow> {
  const queue: RawRow[] = [];
  let finished = false;
  let failure = null as Error | null;
  let wake: (() => void) | null = null;
  let paused = null as Papa.Parser | null;
  let line = 1;
  const notify = () => {
    wake?.();
    wake = null;
  };

  Papa.parse<string[]>(input as unknown as File, {
    skipEmptyLines: false,
    // Agency exports are comma-separated: guessing the delimiter cost 7% of a California import.
    delimiter: ",",
    step(results, parser) {
      const cells = results.data;
      const start = line;
      // Each record ends at one line break; quoted fields may hold more.
      line += 1 + breaksIn(cells);
      if (start === 1 && cells[0]?.startsWith("\uFEFF")) cells[0] = cells[0].slice(1);
      if (results.errors.some((e) => e.type === "Quotes")) {
        // A broken quote can run on over the lines after it: name every line this row took up
        // (a field that ran to the end of the input holds the input's last line break too).
        const what = results.errors.some((e) => e.code === "MissingQuotes")
          ? "a quote is never closed"
          : "malformed quotes";
        const last = start + breaksIn([...cells.slice(0, -1), (cells.at(-1) ?? "").replace(/\r?\n$/, "")]);
        const span = last > start ? `: lines ${start}-${last} could not be read as rows` : "";
        queue.push({ line: start, problem: `unparseable CSV (${what}${span})` });
      } else if (!(cells.length === 1 && cells[0] === "")) {
        queue.push({ line: start, cells });
      }
      if (queue.length >= HIGH_WATER && !paused) {
        parser.pause();
        paused = parser;
      }
      notify();
    },
    complete() {
      finished = true;
      notify();
    },
    error(error: Error) {
      failure = error;
      finished = true;
      notify();
    },
  });
  input.on("error", (error: Error) => {
    failure = error;
    finished = true;
    notify();
  });

  try {
    for (;;) {
      const row = queue.shift();
      if (row) {
        yield row;
        if (paused && queue.length < HIGH_WATER / 4) {
          const parser = paused;
          paused = null;
          parser.resume();
        }
        continue;
      }
      if (failure) throw failure;
      if (finished) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    input.destroy();
  }
}
