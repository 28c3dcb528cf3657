import { Fragment, lazy, Suspense } from "react";
import type { DecodingTable } from "../contract/decoding/decoding-table.ts";
import type { HistoryEntry, LicenseHistory as History, Listing, Source } from "../contract/envelopes.ts";
import { formatIsoDate } from "../contract/calendar-date.ts";
import { formatUpdatedAt } from "../shared/dates.ts";
import { changeWords, valuesWords } from "./history-words.ts";
import type { HistoryAnswer } from "./with-history.tsx";

// What a failure says arrives with the failure: a history that loads never needs it.
const ApiErrorNotice = lazy(async () => ({ default: (await import("../shared/api-error-notice.tsx")).ApiErrorNotice }));

interface Props {
  answer: HistoryAnswer;
  /** The state's code names; null for a state we hold no table for. */
  decoding: DecodingTable | null;
  stateLabel: string;
}

/** What the state's files have said of the license over time, newest first, each fact with its source and date. */
export function LicenseHistory({ answer, decoding, stateLabel }: Props) {
  return (
    <section className="history" aria-labelledby="sec-history">
      <h2 id="sec-history">History</h2>
      {"error" in answer ? (
        <>
          <p>The license’s history could not be fetched.</p>
          <Suspense fallback={null}>
            <ApiErrorNotice error={answer.error} stateLabel={stateLabel} onRetry={answer.retry} />
          </Suspense>
        </>
      ) : answer.history === null ? (
        <p className="none">The service keeps no history of this license.</p>
      ) : (
        <Timeline history={answer.history} decoding={decoding} />
      )}
    </section>
  );
}

function Timeline({ history, decoding }: { history: History; decoding: DecodingTable | null }) {
  const sources = new Map(history.sources.map((source) => [source.id, source]));
  // A complete list starts or ends a listing; a daily report never does.
  const lists = new Set(history.listings.flatMap((run) => [run.first_source, run.last_source]));
  return (
    <>
      <ListingsSummary listings={history.listings} />
      {history.entries.length === 0 ? (
        <p className="none">The service records no events for this license.</p>
      ) : (
        <ol className="history__entries">
          {history.entries.map((entry, i) => (
            <Entry
              key={i}
              entry={entry}
              source={sources.get(entry.source)}
              fromList={entry.since !== null || lists.has(entry.source)}
              decoding={decoding}
            />
          ))}
        </ol>
      )}
      <div className="history__sources">
        <h3>Sources</h3>
        <ul>
          {history.sources.map((source) => (
            <SourceDetails key={source.id} source={source} />
          ))}
        </ul>
      </div>
    </>
  );
}

/** "Listed in all 16 lists from …"; several unbroken runs, each with its dates, so a gap shows. */
function ListingsSummary({ listings }: { listings: Listing[] }) {
  if (listings.length === 0) return null;
  return (
    <p className="history__listings">
      Listed{" "}
      {listings.map((run, i) => (
        <Fragment key={i}>
          {i > 0 ? ", then, after a gap, " : null}
          {run.lists === 1 ? (
            <>
              in the list of <Day iso={run.from} />
            </>
          ) : (
            <>
              in {listings.length === 1 ? "all " : ""}
              {run.lists} lists from <Day iso={run.from} /> to <Day iso={run.to} />
            </>
          )}
        </Fragment>
      ))}
      .
    </p>
  );
}

interface EntryProps {
  entry: HistoryEntry;
  source: Source | undefined;
  /** Whether its source is one of a series of complete lists, rather than a report of changes. */
  fromList: boolean;
  decoding: DecodingTable | null;
}

function Entry({ entry, source, fromList, decoding }: EntryProps) {
  // A first sighting's values had no before, a license no longer listed has no after: they say what
  // the license was seen as, not a change.
  const first = entry.event === "first_seen";
  const gone = entry.event === "no_longer_listed";
  const seenAs = first ? valuesWords(decoding, entry.changes, "to") : "";
  const lastAs = gone ? valuesWords(decoding, entry.changes, "from") : "";
  const changes = first
    ? entry.changes.filter((change) => change.from !== null)
    : gone
      ? entry.changes.filter((change) => change.to !== null)
      : entry.changes;
  return (
    <li className="history__entry" data-event={entry.event}>
      <p className="history__what">
        <span className="history__headline">
          <Headline entry={entry} fromList={fromList} />
        </span>
        {seenAs ? `: ${seenAs}` : null}
        {lastAs ? `; last listed as ${lastAs}` : null}
      </p>
      {changes.length > 0 ? (
        <ul className="history__changes">
          {changes.map((change, i) => (
            <li key={i}>{changeWords(decoding, change)}</li>
          ))}
        </ul>
      ) : null}
      <p className="history__source">
        Source:{" "}
        {source ? (
          <>
            <cite title={`${source.agency}: ${source.title}`}>{source.title}</cite>
            {source.file ? <span className="muted"> ({source.file})</span> : null}
          </>
        ) : (
          <span className="none">not named by the service</span>
        )}
      </p>
    </li>
  );
}

function Headline({ entry: { event, date, since }, fromList }: { entry: HistoryEntry; fromList: boolean }) {
  const notBefore = since ? (
    <>
      {" "}
      (not in the list of <Day iso={since} />)
    </>
  ) : null;
  switch (event) {
    case "first_seen":
      return fromList ? (
        <>
          First listed in the list of <Day iso={date} />
          {notBefore}
        </>
      ) : (
        <>
          First reported on <Day iso={date} />
        </>
      );
    case "listed_again":
      return (
        <>
          Listed again in the list of <Day iso={date} />
          {notBefore}
        </>
      );
    case "no_longer_listed":
      return (
        <>
          No longer listed as of the list of <Day iso={date} />
          {since ? (
            <>
              {" "}
              (last listed in the list of <Day iso={since} />)
            </>
          ) : null}
        </>
      );
    case "changed":
      // A list shows only that something changed between it and the list before; a daily report dates it.
      return since ? (
        <>
          Changed between the lists of <Day iso={since} /> and <Day iso={date} />
        </>
      ) : (
        <>
          Changed on <Day iso={date} />
        </>
      );
  }
}

function Day({ iso }: { iso: string | null }) {
  return iso ? <time dateTime={iso}>{formatIsoDate(iso)}</time> : <span className="none">a date not given</span>;
}

/** Everything a reader needs to find the source again and trust it: on screen and on paper. */
function SourceDetails({ source }: { source: Source }) {
  return (
    <li>
      {source.agency}, <cite>{source.title}</cite>
      {source.file ? <span className="mono"> ({source.file})</span> : null}: {source.coverage}; data as of{" "}
      <Day iso={source.as_of} /> ({source.as_of_from}); loaded into License Lookup {formatUpdatedAt(source.loaded_at)}{" "}
      UTC.
      {source.sha256 ? <span className="history__sha"> SHA-256 {source.sha256}</span> : null}
    </li>
  );
}
