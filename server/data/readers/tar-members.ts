import { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { extract, type Extract } from "tar-stream";

/** A regular file inside a tar archive, streamed. */
export interface TarMember {
  path: string;
  content: Readable;
}

type Entry = Extract extends AsyncIterable<infer E> ? E : never;

/**
 * The regular files of a tar stream (gzipped or not), one at a time, in archive order, without
 * extracting anything. Each member's content must be read (or dropped) before the next is asked for.
 */
export async function* tarMembers(input: Readable, { gzip }: { gzip: boolean }): AsyncGenerator<TarMember> {
  const archive = extract();
  const fail = (error: Error) => archive.destroy(error);
  const bytes = gzip ? input.pipe(createGunzip()).on("error", fail) : input;
  input.on("error", fail);
  bytes.pipe(archive);
  try {
    for await (const entry of archive) {
      if (entry.header.type === "file" || entry.header.type === "contiguous-file") {
        const content = detached(entry);
        yield { path: entry.header.name, content };
        content.destroy();
      }
      // Drop what the reader left unread, so the archive moves on.
      entry.resume();
    }
  } finally {
    input.destroy();
    if (bytes !== input) bytes.destroy();
  }
}

/**
 * A member's bytes as a Node stream whose destruction leaves the archive going: destroying a
 * tar-stream entry destroys the whole archive, without an error, which would end it early unnoticed.
 */
function detached(entry: Entry): Readable {
  const onData = (chunk: unknown) => void (content.push(chunk) || entry.pause());
  const onEnd = () => content.push(null);
  const onError = (error: Error) => content.destroy(error);
  const content = new Readable({
    read: () => void entry.resume(),
    destroy(error, callback) {
      entry.off("data", onData).off("end", onEnd).off("error", onError);
      callback(error);
    },
  });
  entry.on("data", onData).on("end", onEnd).on("error", onError);
  return content;
}
