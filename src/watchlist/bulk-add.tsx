import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { watchlistMutations, watchWriteFailure } from "../api/watchlist-queries.ts";
import { MAX_WATCHED } from "../contract/watchlist.ts";
import { ListFileInput } from "../shared/list-file-input.tsx";
import type { ListLimit, ListRow } from "../shared/list-input.ts";
import { addReport, WatchAddReport, type AddReport, type RowError } from "../shared/watch-add-report.tsx";

const LIMIT: ListLimit = { rows: MAX_WATCHED, use: "added to the watchlist at once" };

/** Why a row of the list is not sent: the parser's own problem, or a name without a number (a watch needs the number). */
function unsendable(row: ListRow): string | null {
  if (row.problem) return row.problem;
  if (row.license === "") return "a license number is needed to watch a license";
  return null;
}

// The list reader (papaparse, and an XLSX reader on a chosen .xlsx) arrives when a list is first read, not with the page.
const listInput = () => import("../shared/list-input.ts");

/** A list of licenses, pasted or from a file, read as the list check reads one, added to the watchlist in one go. */
export function BulkAdd() {
  const [text, setText] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [report, setReport] = useState<AddReport | null>(null);
  const add = useMutation(watchlistMutations.add());

  async function submit() {
    const input = (await listInput()).parseListText(text, LIMIT);
    setReport(null);
    add.reset();
    if ("error" in input) {
      setProblem(input.error);
      return;
    }
    setProblem(null);
    const unsent: RowError[] = input.rows.flatMap((r) => {
      const error = unsendable(r);
      return error ? [{ row: r.line, error }] : [];
    });
    const rows = input.rows
      .filter((r) => unsendable(r) === null)
      .map((r) => ({ row: r.line, state: r.stateGiven, license: r.license }));
    if (rows.length === 0) {
      setReport(addReport([], unsent));
      return;
    }
    add.mutate(rows, { onSuccess: ({ rows: results }) => setReport(addReport(results, unsent)) });
  }

  async function readFile(file: File) {
    const { listText, readListFile } = await listInput();
    const input = await readListFile(file, LIMIT);
    if ("error" in input) {
      setProblem(input.error);
      return;
    }
    setProblem(null);
    // The file's rows land in the box, where the clerk sees and may correct them before adding.
    setText(listText(input.rows));
  }

  return (
    <section className="watch-add" aria-labelledby="watch-add-heading">
      <h2 id="watch-add-heading">Add licenses</h2>
      <form
        className="watch-add__form"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <label htmlFor="watch-list" className="field__label">
          Licenses to watch
        </label>
        <p id="watch-list-hint" className="field__hint">
          One license a line: state and license number, as for Verify a list. Columns pasted from a spreadsheet work,
          and so do commas; a header row is optional. Up to {MAX_WATCHED.toLocaleString("en-US")} rows.
        </p>
        <textarea
          id="watch-list"
          className="watch-add__list mono"
          aria-describedby="watch-list-hint"
          rows={5}
          spellCheck={false}
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder={"NY, 1268007\nNew Jersey, 0101-33-005-003"}
        />
        <ListFileInput id="watch-file" className="watch-add__file" onFile={(file) => void readFile(file)} />
        {problem ? (
          <p className="notice notice--error" role="alert">
            {problem}
          </p>
        ) : null}
        <p className="watchlist__actions">
          <button type="submit" className="button button--primary" disabled={text.trim() === "" || add.isPending}>
            {add.isPending ? "Adding…" : "Add to the watchlist"}
          </button>
        </p>
      </form>
      <WatchAddReport report={report} failure={add.error ? watchWriteFailure(add.error) : null} />
    </section>
  );
}
