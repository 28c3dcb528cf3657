import { open } from "node:fs/promises";

/** `xls`: an OLE compound file, the container of legacy Excel workbooks (BIFF). `sqlite`: a SQLite 3 database. */
export type FileFormat = "zip" | "xls" | "gzip" | "tar" | "sqlite" | "text";

const SQLITE_HEADER = "SQLite format 3\0";

/** What a file is, from its first bytes rather than its name. */
export async function sniffFormat(path: string): Promise<FileFormat> {
  const handle = await open(path, "r");
  try {
    const head = Buffer.alloc(512);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    if (bytesRead >= 4 && head.readUInt32BE(0) === 0x504b0304) return "zip";
    if (bytesRead >= 8 && head.readBigUInt64BE(0) === 0xd0cf11e0a1b11ae1n) return "xls";
    if (bytesRead >= 2 && head[0] === 0x1f && head[1] === 0x8b) return "gzip";
    if (bytesRead >= 262 && head.toString("latin1", 257, 262) === "ustar") return "tar";
    if (bytesRead >= 16 && head.toString("latin1", 0, 16) === SQLITE_HEADER) return "sqlite";
    return "text";
  } finally {
    await handle.close();
  }
}
