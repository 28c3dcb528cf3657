import { useMutation } from "@tanstack/react-query";
import { watchlistMutations, watchWriteFailure } from "../api/watchlist-queries.ts";
import type { WatchAddRow } from "../contract/watchlist.ts";
import { addReport, WatchAddReport } from "../shared/watch-add-report.tsx";
import type { RowResult } from "./verify-list.ts";
import { WidestText } from "./widest-text.tsx";

/** Each license the check found, once, under the first row that names it: its matched number, not the number as given. */
function foundRows(results: readonly RowResult[]): WatchAddRow[] {
  const seen = new Set<string>();
  return results.flatMap((r) => {
    const key = `${r.state} ${r.matched}`;
    if (!r.matched || !r.state || seen.has(key)) return [];
    seen.add(key);
    return [{ row: r.given.line ?? 1, state: r.state, license: r.matched }];
  });
}

/**
 * "Watch all found (N)": every license of a checked list that has a record goes on the team's watchlist. Shown,
 * held, from the check's start (its place kept), counting what is found so far; it acts once the check is done.
 */
export function WatchAll({
  results,
  total,
  complete,
}: {
  results: readonly RowResult[];
  total: string;
  complete: boolean;
}) {
  const add = useMutation(watchlistMutations.add());
  const rows = foundRows(results);
  return (
    <>
      <button
        type="button"
        className="button"
        disabled={!complete || rows.length === 0 || add.isPending}
        onClick={() => add.mutate(rows)}
      >
        <WidestText
          text={`Watch all found (${rows.length.toLocaleString("en-US")})`}
          widest={`Watch all found (${total})`}
        />
      </button>
      <WatchAddReport
        report={add.data ? addReport(add.data.rows) : null}
        failure={add.error ? watchWriteFailure(add.error) : null}
        linked
      />
    </>
  );
}
