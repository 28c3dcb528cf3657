import type { RowOutcome } from "./row-outcome.ts";
import type { SourceFile } from "./source-file.ts";

/** What a look at a file's head found: which of the source's layouts it is, and any as-of date it states. */
export interface FileInspection {
  layout: string;
  asOf: string | null;
}

/** One agency's export format(s): how its files become license records for one state. */
export interface SourceAdapter {
  /** The `--source` name, also shown as the data set's source, e.g. `ny-sla`. */
  name: string;
  /** Lower-case state code the records belong to. */
  state: string;
  /** For --help: the agency and the files it accepts. */
  description: string;
  /** Checks a file's layout before anything is written; throws SourceFileError naming the file. */
  inspect(file: SourceFile): Promise<FileInspection>;
  /** The records of all the files (in order), and every row that could not become one. */
  read(files: readonly SourceFile[]): AsyncIterable<RowOutcome>;
}
