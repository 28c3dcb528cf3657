import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { basename } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

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

/** The SHA-256 of a file's bytes, in hex: what names a source's file and its archived copy. */
export async function sha256Of(path: string): Promise<string> {
  const digest = createHash("sha256");
  await pipeline(createReadStream(path), digest);
  return digest.digest("hex");
}
