import { Link } from "react-router";
import type { WatchAddResult } from "../contract/watchlist.ts";

/** A row of the clerk's list that was not added, and why, in words they can act on. */
export interface RowError {
  row: number;
  error: string;
}

export interface AddReport {
  added: number;
  already: number;
  /** In the list's order. */
  notAdded: RowError[];
}

/** The server's answer row by row, with the rows never sent (`unsent`: the list's own problems). */
export function addReport(results: readonly WatchAddResult[], unsent: readonly RowError[] = []): AddReport {
  const refused = results.flatMap((r) =>
    r.outcome === "error" ? [{ row: r.row, error: r.error ?? "not added" }] : [],
  );
  return {
    added: results.filter((r) => r.outcome === "added").length,
    already: results.filter((r) => r.outcome === "already watched").length,
    notAdded: [...unsent, ...refused].sort((a, b) => a.row - b.row),
  };
}

const count = (n: number) => n.toLocaleString("en-US");

function summary({ added, already, notAdded }: AddReport): string {
  const was = already === 1 ? "was" : "were";
  const rows = notAdded.length === 1 ? "row was" : "rows were";
  return [
    `Added ${count(added)}${already > 0 ? `; ${count(already)} ${was} already watched` : ""}.`,
    notAdded.length > 0 ? `${count(notAdded.length)} ${rows} not added:` : "",
  ]
    .filter(Boolean)
    .join(" ");
}

interface Props {
  report: AddReport | null;
  /** Why nothing was added at all. */
  failure: string | null;
  /** A way to the watchlist, from a page that is not it. */
  linked?: boolean;
}

/** "Added 12; 2 were already watched. 3 rows were not added:" and each row's reason; a live region, announced as it changes. */
export function WatchAddReport({ report, failure, linked = false }: Props) {
  const refused = report?.notAdded.length ?? 0;
  return (
    <div className="watch-report" role="status">
      {failure ? <p className="notice notice--error">{failure}</p> : null}
      {report ? (
        <div className={`notice ${refused > 0 ? "notice--warning" : "notice--info"}`}>
          <p className="notice__title">{summary(report)}</p>
          {refused > 0 ? (
            <ul className="watch-report__rows">
              {report.notAdded.map((r) => (
                <li key={r.row}>
                  Row {r.row}: {r.error}
                </li>
              ))}
            </ul>
          ) : null}
          {linked ? (
            <p>
              <Link to="/watchlist">Open the watchlist</Link>
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
