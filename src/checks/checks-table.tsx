import { Link } from "react-router";
import { CHECKS_PAGE, type LogEntry } from "../contract/checks.ts";
import { formatLocalTime } from "../shared/dates.ts";
import { VerdictBadge } from "../shared/verdict-badge.tsx";
import { actionLabel } from "./entry-words.ts";

/** A page of the log, newest first; each entry's number links to its receipt. */
export function ChecksTable({ entries }: { entries: readonly LogEntry[] }) {
  return (
    <div className="checks-table__wrap">
      <table className="checks-table">
        <caption className="visually-hidden">Entries of the record, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Entry</th>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">What</th>
            <th scope="col">License</th>
            <th scope="col">Verdict</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id}>
              <td>
                <Link to={`${CHECKS_PAGE}/${entry.id}`} aria-label={`Receipt of entry ${entry.id}`}>
                  {entry.id}
                </Link>
              </td>
              <td>{formatLocalTime(entry.at)}</td>
              <td>{entry.user_email ?? <span className="none">No account</span>}</td>
              <td>
                {actionLabel(entry.action)}
                {entry.detail ? <span className="checks-table__detail">{entry.detail}</span> : null}
              </td>
              <td className="mono">{entry.state ? `${entry.state.toUpperCase()} ${entry.license ?? ""}` : ""}</td>
              <td>{entry.verdict ? <VerdictBadge verdict={entry.verdict} /> : null}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
