import { readdirSync } from "node:fs";
import { join } from "node:path";
import { SOURCE_ADAPTERS } from "../sources/adapters.ts";
import { sourceFile } from "../readers/source-file.ts";
import { withSharedHead } from "../readers/table.ts";
import { SourceFileError, UnknownLayoutError, type SourceAdapter } from "../sources/source-adapter.ts";

/** Names of files that may be an agency's export; the rest (notes, SOURCE.md) are not looked at. */
const DATA_FILE = /\.(csv|xlsx|xls|tar|tar\.gz|tgz|db|sqlite|sqlite3)$/i;

export interface FoundSources {
  /** Files each adapter recognised as its own, in path order. */
  bySource: { adapter: SourceAdapter; paths: string[] }[];
  /** Files in a known layout that still cannot be imported, and why. */
  unusable: { path: string; reason: string }[];
  /** Data files in no known layout. */
  unknown: string[];
}

/**
 * Every file under `dir` that a known source can read, found by its content (each adapter
 * inspects the file's head), not its name or folder.
 */
export async function findSources(dir: string): Promise<FoundSources> {
  const paths = walk(dir)
    .filter((path) => DATA_FILE.test(path))
    .sort();
  const found = new Map<SourceAdapter, string[]>();
  const unusable: FoundSources["unusable"] = [];
  const unknown: string[] = [];
  for (const path of paths) {
    let recognised = false;
    const file = withSharedHead(sourceFile(path));
    for (const adapter of SOURCE_ADAPTERS) {
      try {
        await adapter.inspect(file);
        found.set(adapter, [...(found.get(adapter) ?? []), path]);
        recognised = true;
        break;
      } catch (error) {
        if (error instanceof UnknownLayoutError) continue;
        if (!(error instanceof SourceFileError)) throw error;
        unusable.push({ path, reason: `${adapter.name}: ${error.message.replace(`${path}: `, "")}` });
        recognised = true;
        break;
      }
    }
    if (!recognised) unknown.push(path);
  }
  return {
    bySource: SOURCE_ADAPTERS.filter((a) => found.has(a)).map((adapter) => ({ adapter, paths: found.get(adapter)! })),
    unusable,
    unknown,
  };
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? walk(path) : entry.isFile() ? [path] : [];
  });
}
