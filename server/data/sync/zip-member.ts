import { createReadStream } from "node:fs";
import { open, rm } from "node:fs/promises";
import { basename } from "node:path";
import { Unzip, UnzipInflate } from "fflate";
import { IncompleteDownload } from "./download-errors.ts";

/** The most a zip member may inflate to, unless SYNC_MAX_UNZIPPED_MB says otherwise: far past any agency's file. */
export const DEFAULT_MAX_MEMBER_BYTES = 1024 * 1_048_576;

// Compressed bytes handed to the inflater at a time: deflate inflates at most about 1,032 times, so one push
// never holds more than about 16 MB in memory, whatever the zip claims.
const PART_BYTES = 16 * 1024;

/**
 * Writes the member of `zip` named `member` (in any folder of it) to `to`, streamed and counted: refused past
 * `maxBytes` (a zip bomb, or far more than the agency's file), when the zip does not open or ends mid-member, and
 * when it holds no such member. A refusal leaves no file at `to`.
 */
export async function extractMember(
  zip: string,
  member: string,
  to: string,
  options: { url: string; maxBytes: number },
): Promise<void> {
  const { url, maxBytes } = options;
  const notWhole = (why: string) => new IncompleteDownload(url, `${url} is not a whole zip file (${why}).`);
  let found = false;
  let ended = false;
  let written = 0;
  let failure: Error | undefined;
  const pending: Uint8Array[] = [];
  const unzip = new Unzip((file) => {
    if (found || basename(file.name) !== member) return;
    found = true;
    file.ondata = (error, chunk, final) => {
      if (failure) return;
      if (error) {
        failure = notWhole(error.message);
        return;
      }
      written += chunk.length;
      if (written > maxBytes) {
        failure = new IncompleteDownload(
          url,
          `${url}: its member ${member} inflates past ${megabytes(maxBytes)}, the most a zip member may hold ` +
            `(SYNC_MAX_UNZIPPED_MB): it was refused unread, as a zip bomb or a file far larger than the agency's.`,
        );
        file.terminate();
        return;
      }
      pending.push(chunk);
      if (final) ended = true;
    };
    file.start();
  });
  unzip.register(UnzipInflate);

  const out = await open(to, "w");
  try {
    const push = (part: Uint8Array, final = false) => {
      try {
        unzip.push(part, final);
      } catch (error) {
        failure ??= notWhole((error as Error).message);
      }
      if (failure) throw failure;
    };
    for await (const part of createReadStream(zip, { highWaterMark: PART_BYTES }) as AsyncIterable<Buffer>) {
      push(part);
      for (const chunk of pending.splice(0)) await out.write(chunk);
      if (ended) break;
    }
    if (!ended) push(new Uint8Array(0), true);
    for (const chunk of pending.splice(0)) await out.write(chunk);
    if (!found) throw new IncompleteDownload(url, `${url} holds no ${member}.`);
    if (!ended) throw notWhole(`it ends within ${member}`);
  } catch (error) {
    await out.close();
    await rm(to, { force: true });
    throw error;
  }
  await out.close();
}

function megabytes(bytes: number): string {
  return `${Math.round((bytes / 1_048_576) * 10) / 10} MB`;
}
