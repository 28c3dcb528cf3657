import { openTableFile, readTableFile, type OpenTable, type TableLayout } from "../readers/table.ts";
import type { SourceFile } from "../readers/source-file.ts";
import {
  newestFacts,
  type AsOfFrom,
  type FileInspection,
  type SourceAdapter,
  type SourceRecord,
} from "./source-adapter.ts";

/** A layout of a roster: a table whose rows are licenses one for one, and what such a file is. */
export interface RosterLayout<K extends string = string> extends TableLayout<SourceRecord, K> {
  /** The dataset's title, as the agency calls it. */
  title: string;
  /** Layouts of one family are one series over time (an older and a newer export of the same list). */
  family: string;
  /** A list cut from a fuller one of its family (FileInspection.partial). */
  partial?: boolean;
  coverage: FileInspection["coverage"];
  datesBeforeExport: FileInspection["datesBeforeExport"];
}

/** What a file says of itself before its rows: where an agency dates its list. */
export interface FileHead {
  /** The rows above the header: titles, report dates. */
  preamble: unknown[][];
  /** A spreadsheet's worksheet name; null for a CSV. */
  sheet: string | null;
  /** The file's base name. */
  name: string;
}

/** A roster layout, its column names checked wherever its rows are read. */
export function rosterLayout<K extends string>(layout: RosterLayout<K>): RosterLayout<K> {
  return layout;
}

/** A source whose files are rosters: each row a license, each file every license it covers. */
export function rosterAdapter(spec: {
  name: string;
  state: string;
  agency: string;
  description: string;
  // Each layout names its own columns; the adapter only needs their shared shape.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  layouts: readonly RosterLayout<any>[];
  /** The as-of date the file's head states (see FileHead), and how, if the source dates its files there. */
  statedAsOf?: (head: FileHead) => { asOf: string; asOfFrom: AsOfFrom } | null;
  /** See SourceAdapter.unstatedStatus. */
  unstatedStatus?: string;
}): SourceAdapter {
  // Tables inspect() kept open, by the inspection read() gets: each is read (or closed) once.
  const kept = new WeakMap<FileInspection, OpenTable<SourceRecord>>();
  return {
    name: spec.name,
    state: spec.state,
    agency: spec.agency,
    description: spec.description,
    kind: "roster",
    unstatedStatus: spec.unstatedStatus,
    async inspect(file: SourceFile, options = {}): Promise<FileInspection> {
      const table = await openTableFile(file, spec.layouts);
      // A spreadsheet's head (its shared strings, its styles) is a fifth of its reading, and an .xls
      // is parsed whole before its first row: kept open, it is parsed once. A CSV's head costs
      // nothing, and one kept open would read on ahead.
      const keep = options.keepOpen === true && table.format !== "text";
      if (!keep) await table.close();
      const layout = table.layout as RosterLayout;
      const stated = spec.statedAsOf?.({ preamble: table.preamble, sheet: table.sheet, name: file.name });
      const inspection: FileInspection = {
        layout: layout.name,
        title: layout.title,
        family: `${spec.name}: ${layout.family}`,
        partial: layout.partial,
        asOf: stated?.asOf ?? null,
        asOfFrom: stated?.asOfFrom,
        coverage: layout.coverage,
        datesBeforeExport: layout.datesBeforeExport,
      };
      if (keep) {
        kept.set(inspection, table);
        inspection.close = async () => {
          kept.delete(inspection);
          await table.close();
        };
      }
      return inspection;
    },
    async *read(file, inspection) {
      const opened = inspection && kept.get(inspection);
      if (inspection) kept.delete(inspection);
      for await (const row of readTableFile(file, spec.layouts, opened)) {
        if (!("value" in row)) yield row;
        else {
          const { at, value, repairs, asOf } = row;
          yield { at, license: value.license, facts: value, repairs, ...(asOf ? { asOf } : {}) };
        }
      }
    },
    fold: newestFacts,
  };
}
