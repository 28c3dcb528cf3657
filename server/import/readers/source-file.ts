import { createReadStream } from "node:fs";
import { basename } from "node:path";
import type { Readable } from "node:stream";

/** A file given to an import, opened as often as needed, counting the bytes read for progress. */
export interface SourceFile {
  path: string;
  /** How rows of this file are named in messages: its base name. */
  name: string;
  open(): Readable;
}

export function sourceFile(path: string, onBytes: (bytes: number) => void = () => {}): SourceFile {
  return {
    path,
    name: basename(path),
    open() {
      const stream = createReadStream(path);
      stream.on("data", (chunk) => onBytes(chunk.length));
      return stream;
    },
  };
}
