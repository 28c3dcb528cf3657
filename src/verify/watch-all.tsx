import { useMutation } from "@tanstack/react-query";
import { watchlistMutations } from "../api/watchlist-queries.ts";
import type { WatchAddRow } from "../contract/watchlist.ts";
import { addReport, watchWriteFailure, WatchAddReport } from "../shared/watch-add-report.tsx";
import type { RowResult } from "./verify-list.ts";

/** Each license the check found, once, under the first row that names it: its matched number, not the number as given. */
function foundRows(results: readonly RowResult[]): WatchAddRow[] {
  const seen = new Set<string>();
  return results.flatMap((r) => {
    const key = `${r.state} ${r.matched}`;
    if (!r.matched || !r.state || seen.has(key)) return [];
    seen.add(key);
    return [{ row: r.row, state: r.state, license: r.matched }];
  });
}

/** "Watch all found (N)": every license of a checked list that has a record goes on the team's watchlist. */
export function WatchAll({ results }: { results: readonly RowResult[] }) {
  const add = useMutation(watchlistMutations.add());
  const rows = foundRows(results);
  if (rows.length === 0) return null;
  return (
    <div className="watch-all no-print">
      <button type="button" className="button" disabled={add.isPending} onClick={() => add.mutate(rows)}>
        Watch all found ({rows.length.toLocaleString("en-US")})
      </button>
      <WatchAddReport
        report={add.data ? addReport(add.data.rows) : null}
        failure={add.error ? watchWriteFailure(add.error) : null}
        linked
      />
    </div>
  );
}
