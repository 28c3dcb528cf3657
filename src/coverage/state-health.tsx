import type { FeedHealth, Refusal, StateCoverage } from "../contract/envelopes.ts";
import { formatLocalTime } from "../shared/dates.ts";
import { serviceInstant, timeAgo } from "./time-ago.ts";

/** Whether the service says anything of a state's updates: one that does not sync may send neither field. */
export function tellsHealth(coverage: StateCoverage): boolean {
  return coverage.feeds !== undefined || coverage.last_refusal !== undefined;
}

/**
 * The state's newest refused file while nothing has loaded since: only then is "the records from before it are
 * still served" sure to be true.
 */
export function standingRefusal(coverage: StateCoverage): Refusal | null {
  const refusal = coverage.last_refusal;
  if (!refusal) return null;
  return coverage.sources.some((s) => s.loaded_at > refusal.refused_at) ? null : refusal;
}

const troubled = (feed: FeedHealth) => feed.outcome === "failed" || feed.outcome === "refused";

/** A refused file still standing, or a feed whose last check failed or was refused: what a person should look at. */
export function needsALook(coverage: StateCoverage): boolean {
  return standingRefusal(coverage) !== null || (coverage.feeds ?? []).some(troubled);
}

/** A state's updates: each agency feed's last check, and its newest refused file. Nothing the service did not say. */
export function StateHealth({ coverage, now }: { coverage: StateCoverage; now: number }) {
  const { feeds, last_refusal: refusal } = coverage;
  if (!tellsHealth(coverage)) return <span className="none">Not given</span>;
  const standing = standingRefusal(coverage);
  return (
    <>
      {feeds?.length === 0 ? <p className="data-health__by-hand">Updated by hand: not checked automatically.</p> : null}
      {feeds?.length ? (
        <ul className="data-health__feeds">
          {feeds.map((feed) => (
            <FeedLine
              key={feed.feed}
              feed={feed}
              now={now}
              named={feeds.length > 1}
              // The refused file below says the same sentence, with its file and what is still served: said once.
              reasonBelow={standing !== null && feed.outcome === "refused" && feed.detail === standing.reason}
            />
          ))}
        </ul>
      ) : null}
      {standing ? (
        <div className="data-health__problem">
          <p>
            <strong>
              <span aria-hidden="true">⚠ </span>Update refused
            </strong>{" "}
            <When value={standing.refused_at} now={now} />: {standing.file}. The records from before it are still
            served.
          </p>
          <p className="data-health__reason">{standing.reason}</p>
        </div>
      ) : refusal ? (
        <details className="data-health__older">
          <summary>
            A file was refused <When value={refusal.refused_at} now={now} />; data has been loaded since
          </summary>
          <p>
            {refusal.file}: {refusal.reason}
          </p>
        </details>
      ) : null}
    </>
  );
}

/** "2 hours ago (November 22, 2026, 08:04)": the reader's date and time beside, for a refusal to be found by. */
function When({ value, now }: { value: string; now: number }) {
  const instant = serviceInstant(value);
  return (
    <time dateTime={instant}>
      {timeAgo(value, now)} ({formatLocalTime(instant)})
    </time>
  );
}

function FeedLine({
  feed,
  now,
  named,
  reasonBelow,
}: {
  feed: FeedHealth;
  now: number;
  named: boolean;
  reasonBelow: boolean;
}) {
  const checked = <time dateTime={serviceInstant(feed.checked_at)}>{timeAgo(feed.checked_at, now)}</time>;
  const lastNew =
    feed.outcome === "changed" ? null : feed.changed_at ? (
      <> Last new data {timeAgo(feed.changed_at, now)}.</>
    ) : troubled(feed) ? (
      <> No check has brought new data yet.</>
    ) : null;
  return (
    <li className={troubled(feed) ? "data-health__problem" : undefined}>
      {named ? <span className="data-health__feed">{feed.feed}: </span> : null}
      {feed.outcome === "unchanged" ? (
        <>Checked {checked}: nothing new.</>
      ) : feed.outcome === "changed" ? (
        <>Checked {checked}: new data loaded.</>
      ) : (
        <>
          <strong>
            <span aria-hidden="true">⚠ </span>
            {feed.outcome === "failed" ? "Check failed" : "Download refused"}
          </strong>{" "}
          {checked}
          {reasonBelow ? ": the file and why are below." : `: ${feed.detail}`}
        </>
      )}
      {lastNew}
    </li>
  );
}
