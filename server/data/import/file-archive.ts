import { createHash, randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { access, mkdir, rename, rm } from "node:fs/promises";
import { basename, extname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import { SourceFileError } from "../sources/source-adapter.ts";

/**
 * Keeps a copy of an imported file, as read, at `<dir>/<sha256><ext>`, so that every served fact
 * traces to the exact bytes it came from. A copy already there is left as it is (same name, same
 * bytes); a new one is written to a temporary name and renamed, so a copy is whole or absent.
 * Returns the copy's path.
 */
export async function keepInArchive(path: string, sha256: string, dir: string): Promise<string> {
  const target = join(dir, `${sha256}${archiveExtension(path)}`);
  if (await exists(target)) return target;
  await mkdir(dir, { recursive: true });
  const temp = join(dir, `.${sha256}.${randomUUID()}.tmp`);
  try {
    const digest = createHash("sha256");
    await pipeline(
      createReadStream(path),
      async function* (chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          digest.update(chunk);
          yield chunk;
        }
      },
      createWriteStream(temp, { flags: "wx", flush: true }),
    );
    // The copy must be the bytes the import read: a file rewritten meanwhile is not archived under another's name.
    if (digest.digest("hex") !== sha256) throw new SourceFileError(`${path}: changed while it was being imported`);
    await rename(temp, target);
    return target;
  } finally {
    await rm(temp, { force: true });
  }
}

/** `.csv`, `.xlsx`, `.tar.gz`, … as the original's name ends, so the copy opens as the original does. */
export function archiveExtension(path: string): string {
  const name = basename(path).toLowerCase();
  const ext = name.endsWith(".tar.gz") ? ".tar.gz" : extname(name);
  return /^\.[a-z0-9]{1,8}(\.gz)?$/.test(ext) ? ext : "";
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
