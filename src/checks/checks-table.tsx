import { Link } from "react-router";
import { CHECKS_PAGE, GivenRowSchema, type GivenRow, type LogEntry } from "../contract/checks.ts";
import { z } from "zod/mini";
import { formatLocalTime } from "../shared/dates.ts";
import { VerdictBadge } from "../shared/verdict-badge.tsx";
import { actionLabel, givenText } from "./entry-words.ts";

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
          {entries.map((entry) => {
            const given = givenOf(entry);
            return (
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
                  {given ? (
                    <span className="checks-table__detail">
                      {given.line === null ? "" : `Line ${given.line}: `}
                      {givenText(given) || "an empty row"}
                    </span>
                  ) : null}
                </td>
                <td className="mono">{entry.state ? `${entry.state.toUpperCase()} ${entry.license ?? ""}` : ""}</td>
                <td>
                  {entry.verdict ? <VerdictBadge verdict={entry.verdict} /> : null}
                  {entry.verdict && entry.reason ? <span className="checks-table__detail">{entry.reason}</span> : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** What the clerk gave, where the entry keeps it: a Verify row's. */
function givenOf(entry: LogEntry): GivenRow | null {
  if (entry.given_json === null) return null;
  try {
    const parsed = z.safeParse(GivenRowSchema, JSON.parse(entry.given_json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
