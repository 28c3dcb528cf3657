import { openTableFile, readTableFile } from "./table-file.ts";
import type { FileInspection, SourceAdapter } from "./source-adapter.ts";
import type { SourceRecord } from "./row-outcome.ts";
import type { SourceFile } from "./source-file.ts";
import type { TableLayout } from "./table-layout.ts";

/** A source whose rows are licenses one for one, in one of a few table layouts. */
export function tableAdapter(spec: {
  name: string;
  state: string;
  description: string;
  layouts: readonly TableLayout<SourceRecord>[];
  /** The as-of date the rows above the header state, if the source has one. */
  statedAsOf?: (preamble: unknown[][]) => string | null;
}): SourceAdapter {
  return {
    name: spec.name,
    state: spec.state,
    description: spec.description,
    async inspect(file: SourceFile): Promise<FileInspection> {
      const table = await openTableFile(file, spec.layouts);
      await table.close();
      return { layout: table.layout.name, asOf: spec.statedAsOf?.(table.preamble) ?? null };
    },
    async *read(files) {
      for (const file of files) {
        for await (const row of readTableFile(file, spec.layouts)) {
          yield "value" in row ? { at: row.at, record: row.value } : row;
        }
      }
    },
  };
}
