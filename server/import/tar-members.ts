import { PassThrough, type Readable } from "node:stream";
import { Parser, type ReadEntry } from "tar";

/** A regular file inside a tar archive, streamed. */
export interface TarMember {
  path: string;
  content: Readable;
}

/**
 * The regular files of a tar stream (gzipped or not), one at a time, in archive order, without
 * extracting anything. Each member's content must be read (or dropped) before the next is asked for.
 */
export async function* tarMembers(input: Readable): AsyncGenerator<TarMember> {
  const parser = new Parser({ strict: true });
  const waiting: ReadEntry[] = [];
  let ended = false;
  let failure = null as Error | null;
  let wake = () => {};
  parser.on("entry", (entry: ReadEntry) => {
    if (entry.type !== "File" && entry.type !== "OldFile") return void entry.resume();
    waiting.push(entry);
    wake();
  });
  parser.on("end", () => {
    ended = true;
    wake();
  });
  const fail = (error: Error) => {
    failure = error;
    wake();
  };
  parser.on("error", fail);
  input.on("error", fail);
  input.pipe(parser);
  try {
    for (;;) {
      if (failure) throw failure;
      const entry = waiting.shift();
      if (entry) {
        const content = new PassThrough();
        entry.pipe(content);
        yield { path: entry.path, content };
        // Drop what the reader left unread, so the archive moves on.
        entry.unpipe(content);
        entry.resume();
      } else if (ended) {
        return;
      } else {
        await new Promise<void>((resolve) => (wake = resolve));
      }
    }
  } finally {
    input.destroy();
  }
}
