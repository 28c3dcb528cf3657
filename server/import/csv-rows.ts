import { parse, type Options } from "csv-parse";
import { Transform, type Readable, type TransformCallback } from "node:stream";
import type { RawRow } from "./raw-row.ts";

const NEWLINE = 0x0a;

/**
 * Where the line breaks of a byte stream are, as it flows past: the line of any byte offset.
 * (The parser's own line count counts a CRLF inside quotes twice.)
 */
class LineIndex extends Transform {
  private offsets: number[] = [];
  private head = 0;
  private dropped = 0;
  private seen = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    // Offsets before the head are only counted, not kept: no memory grows with the file.
    if (this.head > 4096) {
      this.dropped += this.head;
      this.offsets = this.offsets.slice(this.head);
      this.head = 0;
    }
    for (let i = chunk.indexOf(NEWLINE); i !== -1; i = chunk.indexOf(NEWLINE, i + 1)) this.offsets.push(this.seen + i);
    this.seen += chunk.length;
    done(null, chunk);
  }

  /** Number of line breaks before byte `offset`; offsets asked for never go down. */
  breaksBefore(offset: number): number {
    while (this.head < this.offsets.length && this.offsets[this.head]! < offset) this.head++;
    return this.dropped + this.head;
  }
}

interface Parsed {
  cells: string[];
  line: number;
}

function breaksIn(cells: string[]): number {
  let n = 0;
  for (const cell of cells) for (let i = cell.indexOf("\n"); i !== -1; i = cell.indexOf("\n", i + 1)) n++;
  return n;
}

/**
 * The records of a CSV stream, each with the line it starts on (quoted fields may span lines).
 * A record the parser cannot make sense of becomes a problem row, in its place; parsing goes on.
 */
export async function* csvRows(input: Readable): AsyncGenerator<RawRow> {
  const lines = new LineIndex();
  let lastEnd = 0;
  const problems: RawRow[] = [];
  // Typed for records as string arrays; on_record turns them into Parsed, which is what comes out.
  const toParsed = (cells: string[], context: { bytes: number }): Parsed => {
    // The record ends at `bytes`, just after its own line break (if any); count back over the breaks in it.
    const endLine = 1 + lines.breaksBefore(context.bytes - 1);
    lastEnd = context.bytes;
    return { cells, line: endLine - breaksIn(cells) };
  };
  const parser = parse({
    bom: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_record: toParsed as unknown as Options["on_record"],
    on_skip: (error) => {
      problems.push({ line: 1 + lines.breaksBefore(lastEnd), problem: `unparseable CSV (${csvErrorWords(error?.code)})` });
      return undefined;
    },
  });
  input.on("error", (error) => parser.destroy(error));
  try {
    for await (const record of input.pipe(lines).pipe(parser) as AsyncIterable<Parsed>) {
      // Problems are found while the parser runs ahead of this loop: give them back in line order.
      while (problems.length && problems[0]!.line < record.line) yield problems.shift()!;
      yield record;
    }
    yield* problems.splice(0);
  } finally {
    input.destroy();
  }
}

function csvErrorWords(code: string | undefined): string {
  switch (code) {
    case "CSV_QUOTE_NOT_CLOSED":
      return "a quote is never closed";
    case "CSV_MAX_RECORD_SIZE":
      return "a record too long to be real";
    default:
      return "malformed quoting";
  }
}
