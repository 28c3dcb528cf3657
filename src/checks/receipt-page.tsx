import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "react-router";
import { ApiError } from "../api/api-error.ts";
import { checksQueries } from "../api/checks-queries.ts";
import { CHECKS_PAGE, type GivenRow, type LogEntry } from "../contract/checks.ts";
import { formatIsoDate } from "../contract/calendar-date.ts";
import type { Provenance } from "../contract/envelopes.ts";
import type { License } from "../contract/license.ts";
import { ApiErrorNotice } from "../shared/api-error-notice.tsx";
import { actionLabel, whoWords } from "./entry-words.ts";
import { Fact, ReceiptRecord } from "./receipt-record.tsx";
import { receiptSentence } from "./receipt-sentence.ts";

/** `/checks/:id`: one entry as stored, printable: what was shown then, never today's data. */
export function ReceiptPage() {
  const { id = "" } = useParams();
  const number = /^[1-9]\d{0,15}$/.test(id) ? Number(id) : null;
  const receipt = useQuery({ ...checksQueries.receipt(number ?? 0), enabled: number !== null });

  if (number === null || (receipt.error instanceof ApiError && receipt.error.details.status === 404)) {
    return <Missing id={id} />;
  }
  if (receipt.error instanceof ApiError && receipt.error.details.status === 403) {
    return (
      <div className="not-found">
        <title>{`Entry ${id} – License Lookup`}</title>
        <h1>Another person’s check</h1>
        <p className="lede">
          Entry {id} was recorded for someone else. Members read their own checks; auditors and administrators read
          everyone’s.
        </p>
        <p>
          <Link to={CHECKS_PAGE}>Your checks</Link>
        </p>
      </div>
    );
  }
  if (receipt.isError) {
    return (
      <ApiErrorNotice error={receipt.error} stateLabel="The record of checks" onRetry={() => void receipt.refetch()} />
    );
  }
  if (!receipt.data) {
    return (
      <p className="page-loading" role="status">
        Loading…
      </p>
    );
  }
  return <Receipt {...receipt.data} />;
}

function Receipt({
  entry,
  record,
  provenance,
  given,
}: {
  entry: LogEntry;
  record: License | null;
  provenance: Provenance | null;
  given: GivenRow | null;
}) {
  const subject =
    entry.state && entry.license ? `${entry.state.toUpperCase()} ${entry.license}` : actionLabel(entry.action);
  return (
    <article className="receipt">
      <title>{`Receipt ${entry.id}: ${subject} – License Lookup`}</title>
      <p className="print-only print-title">License Lookup · receipt of entry {entry.id}</p>
      <h1>
        Entry {entry.id}: {subject}
      </h1>
      <p className="receipt__sentence">{receiptSentence(entry, provenance, given, record)}</p>
      <p className="receipt__actions no-print">
        <button type="button" className="button button--primary" onClick={() => window.print()}>
          Print
        </button>
        <Link className="button button--quiet" to={CHECKS_PAGE}>
          All checks
        </Link>
      </p>

      {given ? (
        <section aria-labelledby="receipt-given">
          <h2 id="receipt-given">What the clerk gave</h2>
          <GivenFacts given={given} />
        </section>
      ) : null}

      {record ? (
        <section aria-labelledby="receipt-record">
          <h2 id="receipt-record">The record as it was served</h2>
          <ReceiptRecord record={record} />
        </section>
      ) : null}

      <section aria-labelledby="receipt-entry">
        <h2 id="receipt-entry">The entry as stored</h2>
        <dl className="facts">
          <Fact term="Entry">{entry.id}</Fact>
          <Fact term="At (UTC)">{entry.at}</Fact>
          <Fact term="Clerk’s time zone">{entry.zone ?? "Not given"}</Fact>
          <Fact term="Action">{entry.action}</Fact>
          <Fact term="Who">
            {whoWords(entry)}
            {entry.user_role ? `, ${entry.user_role}` : ""}
          </Fact>
          {entry.state ? <Fact term="State">{entry.state.toUpperCase()}</Fact> : null}
          {entry.license ? (
            <Fact term="License asked">
              <span className="mono">{entry.license}</span>
            </Fact>
          ) : null}
          {entry.verdict ? <Fact term="Verdict">{entry.verdict}</Fact> : null}
          {entry.reason ? <Fact term="Reason">{entry.reason}</Fact> : null}
          {entry.detail ? <Fact term="Detail">{entry.detail}</Fact> : null}
          {entry.as_of ? <Fact term="Data as of">{formatIsoDate(entry.as_of)}</Fact> : null}
          {entry.source_sha256 ? <Hash term="Source file’s SHA-256" value={entry.source_sha256} /> : null}
          {entry.record_sha256 ? <Hash term="Record’s SHA-256" value={entry.record_sha256} /> : null}
          <Fact term="App version">{entry.app_version}</Fact>
          <Hash term="Hash of the entry before" value={entry.prev_hash} />
          <Hash term="This entry’s hash" value={entry.hash} />
        </dl>
      </section>

      {entry.record_json ? (
        <section aria-labelledby="receipt-json">
          <h2 id="receipt-json">The record’s JSON, byte for byte</h2>
          <pre className="receipt__json">{entry.record_json}</pre>
        </section>
      ) : null}
    </article>
  );
}

/** The row as pasted or as the file held it, and its line there. */
function GivenFacts({ given }: { given: GivenRow }) {
  const none = <span className="none">None given</span>;
  return (
    <dl className="facts">
      {given.line !== null ? <Fact term="Line of the list">{given.line}</Fact> : null}
      <Fact term="State">{given.state || none}</Fact>
      <Fact term="License number">{given.license ? <span className="mono">{given.license}</span> : none}</Fact>
      <Fact term="Business name">{given.business || none}</Fact>
      <Fact term="Address">{given.address || none}</Fact>
    </dl>
  );
}

function Hash({ term, value }: { term: string; value: string }) {
  return (
    <Fact term={term}>
      <span className="mono receipt__hash">{value}</span>
    </Fact>
  );
}

function Missing({ id }: { id: string }) {
  return (
    <div className="not-found">
      <title>No such entry – License Lookup</title>
      <h1>No entry “{id}”</h1>
      <p className="lede">
        The record of checks holds no entry with this number. A receipt’s link looks like /checks/1234.
      </p>
      <p>
        <Link className="button button--primary" to={CHECKS_PAGE}>
          All checks
        </Link>
      </p>
    </div>
  );
}
