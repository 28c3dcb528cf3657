import { memo } from "react";
import { Link } from "react-router";
import type { WatchEntry } from "../contract/watchlist.ts";
import { formatIsoDate } from "../contract/calendar-date.ts";
import { licenseUrl } from "../shared/page-urls.ts";
import { VerdictBadge } from "../shared/verdict-badge.tsx";
import type { WatchRow } from "./watch-rows.ts";

interface RowProps {
  row: WatchRow;
  removing: boolean;
  failure: string | null;
  /** Null for an auditor, who removes nothing: the row has no Remove cell. */
  onRemove: ((entry: WatchEntry) => Promise<void>) | null;
}

/** A row renders again only when its license, or its removal, changes. */
export const WatchRowView = memo(function WatchRowView({ row, removing, failure, onRemove }: RowProps) {
  const { entry } = row;
  const none = <span className="none">Not given</span>;
  return (
    <tr data-verdict={row.verdict.replace(" ", "-")} data-changed={entry.unseen > 0 || undefined}>
      <td>{entry.state.toUpperCase()}</td>
      <td className="mono">
        <Link to={licenseUrl(entry.state, entry.license)}>{entry.license}</Link>
      </td>
      <td>
        {row.business || row.owner || none}
        {row.owner && row.business && row.owner !== row.business ? (
          <span className="watch-table__owner">{row.owner}</span>
        ) : null}
      </td>
      <td>
        <VerdictBadge verdict={row.verdict} />
        <span className="watch-table__reason">{row.reason}</span>
      </td>
      <td>{row.expires ? formatIsoDate(row.expires) : none}</td>
      <td>{row.source ? `${row.source}${row.asOf ? `, as of ${formatIsoDate(row.asOf)}` : ""}` : none}</td>
      <td>
        {entry.unseen > 0 ? (
          <span className="watch-table__changed">
            {entry.unseen === 1 ? "1 change" : `${entry.unseen.toLocaleString("en-US")} changes`}
          </span>
        ) : null}
      </td>
      {onRemove ? (
        <td>
          <button
            type="button"
            className="button button--quiet"
            aria-label={`Remove ${entry.state.toUpperCase()} ${entry.license}`}
            disabled={removing}
            onClick={() => void onRemove(entry)}
          >
            Remove
          </button>
          {failure ? <span className="watch-table__failure">{failure}</span> : null}
        </td>
      ) : null}
    </tr>
  );
});
