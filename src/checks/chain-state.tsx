import { useQuery } from "@tanstack/react-query";
import { checksQueries } from "../api/checks-queries.ts";
import { formatLocalTime } from "../shared/dates.ts";

/**
 * Whether the record still holds, at the top of the Checks page, as the server last verified it (the entries since
 * its last check, the whole record once a day): its newest hash is what a digest carries outside.
 * It counts the whole record, everyone's entries and sign-ins; `everyone` is false for a member, who is told so,
 * since the entries listed below are only theirs.
 */
export function ChainState({ everyone }: { everyone: boolean }) {
  const chain = useQuery(checksQueries.chain());
  if (chain.isPending) {
    return (
      <p className="chain-state" role="status">
        Checking the record’s chain…
      </p>
    );
  }
  if (chain.isError) {
    return <p className="chain-state notice notice--warning">The record’s chain could not be checked just now.</p>;
  }
  const { ok, entries, head, broken_at: brokenAt, problem, checked_at: checkedAt } = chain.data;
  if (!ok) {
    return (
      <div className="chain-state notice notice--error" role="alert">
        <p className="notice__title">The record has been altered: entry {brokenAt ?? "?"} breaks the chain.</p>
        <p>
          {problem ? `${problem} ` : ""}Entries from {brokenAt ?? "there"} on cannot be relied on as proof. Tell whoever
          runs License Lookup; <span className="mono">npm run checks -- verify</span> names the same entry.
        </p>
      </div>
    );
  }
  if (entries === 0 || head === null) {
    return <p className="chain-state notice notice--info">The record is empty: nothing has been recorded yet.</p>;
  }
  return (
    <p className="chain-state notice notice--info">
      The record is intact: {entries.toLocaleString("en-US")} {entries === 1 ? "entry" : "entries"}
      {everyone ? "" : " in all, everyone’s"}; newest hash{" "}
      <span className="mono" title={head}>
        {head.slice(0, 12)}…
      </span>{" "}
      <span className="muted">(checked {formatLocalTime(checkedAt)})</span>
    </p>
  );
}
