import { useRef, type ReactNode } from "react";
import { Link } from "react-router";
import { CODE_NOT_IN_TABLE, codeNames, statusGloss } from "../contract/decoding/decode.ts";
import type { CodeKind, DecodingTable } from "../contract/decoding/decoding-table.ts";
import type { FieldSource, Provenance } from "../contract/envelopes.ts";
import { licenseDates, type License } from "../contract/license.ts";
import { stateName } from "../contract/states.ts";
import { addressLines } from "../shared/address-lines.ts";
import { formatIsoDate } from "../contract/calendar-date.ts";
import { formatLocalTime, formatUpdatedAt, localIsoDate } from "../shared/dates.ts";
import { recordAsOf } from "../contract/record-source.ts";
import { useArrivalFocus } from "../shared/use-arrival-focus.ts";
import { licenseVerdict } from "../contract/verdict.ts";
import { VerdictBadge } from "../shared/verdict-badge.tsx";
import { searchFormUrl } from "../shared/page-urls.ts";
import { CopyLinkButton } from "./copy-link-button.tsx";
import { ExpiryNotice } from "./expiry-notice.tsx";
import { factsLabel, fieldSource, fromOlderList, olderFieldsSentence, olderLists } from "./field-sources.ts";
import { WatchButton } from "./watch-button.tsx";

interface Props {
  license: License;
  /** Where the record comes from; null when the service does not say. */
  provenance: Provenance | null;
  /** The state's code names; null for a state we hold no table for. */
  decoding: DecodingTable | null;
  /** When this copy was fetched: part of the audit record. */
  retrievedAt: Date;
  /** What the state's files have said of it over time: under the record, on screen and on paper. */
  history?: ReactNode;
  /** "Recorded in Checks", once the check is recorded: beside the verdict's source. */
  recorded?: ReactNode;
}

export function LicenseDetail({ license, provenance, decoding, retrievedAt, history, recorded }: Props) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useArrivalFocus(headingRef);

  const dates = licenseDates(license);
  const { details } = license;
  const stateLabel = stateName(license.state) ?? license.state.toUpperCase();
  const asOf = recordAsOf(provenance);
  const verdict = licenseVerdict(license, { today: localIsoDate(retrievedAt), asOf, decoding });
  const gloss = statusGloss(decoding, license.status);
  const address = addressLines(license.address);
  // Where a field is an older list's (New York's 2019 extract gives no address): that list and its date, beside it.
  const from = (field: FieldSource["field"]) => fieldSource(provenance, field);
  const older = olderLists(provenance);
  const olderSentence = olderFieldsSentence(provenance, asOf);
  const none = <span className="none">None given</span>;
  const unpublished = <span className="none">Not published by the state</span>;
  const date = (iso: string | null) => (iso ? formatIsoDate(iso) : unpublished);
  const codes = (kind: CodeKind, value: string | null) => {
    const named = value === null ? [] : codeNames(decoding, kind, value);
    if (named.length === 0) return value?.trim() ? value : none;
    return named.map((c) => (
      <span key={c.code} className="code">
        <span className="mono">{c.code}</span>{" "}
        {"name" in c ? c.name : <span className="none">({CODE_NOT_IN_TABLE})</span>}
      </span>
    ));
  };

  return (
    <article className="license">
      <title>{`${license.business} – ${license.state.toUpperCase()} ${license.license} – License Lookup`}</title>
      <p className="print-only print-title">License Lookup · audit record</p>
      <header className="license__header">
        <p className="eyebrow">{stateLabel} liquor license</p>
        <h1 ref={headingRef} tabIndex={-1}>
          {license.business || <span className="none">No business name given</span>}
        </h1>
        <p className="license__id">
          <span className="mono license__number">{license.license}</span>
        </p>
      </header>

      <section className="verdict-panel" data-verdict={verdict.verdict} aria-labelledby="sec-verdict">
        <h2 id="sec-verdict" className="visually-hidden">
          Verdict
        </h2>
        <p className="verdict-panel__line">
          <VerdictBadge verdict={verdict.verdict} />
          <span className="verdict-panel__reason">{verdict.reason}</span>
        </p>
        <p className="verdict-panel__source">
          {provenance ? (
            <>
              Source: {provenance.source.agency}, {provenance.source.title}
              {asOf ? `, as of ${formatIsoDate(asOf)}` : ", date not given"}.
              {olderSentence ? ` ${olderSentence}` : null}
            </>
          ) : (
            "The service does not give this record’s source or date."
          )}
        </p>
        {/* A line of its own, kept from the start: "Recorded in Checks" arrives after the verdict and moves nothing. */}
        <p className="verdict-panel__recorded">{recorded}</p>
      </section>

      {verdict.verdict === "valid" || verdict.verdict === "check" ? (
        <ExpiryNotice expires={dates.expires} now={retrievedAt} />
      ) : null}

      <div className="license__actions no-print">
        <WatchButton state={license.state} license={license.license} />
        <CopyLinkButton />
        <button type="button" className="button" onClick={() => window.print()}>
          Print record
        </button>
        <Link
          className="button button--quiet"
          to={searchFormUrl({ state: license.state, by: "license", q: license.license })}
        >
          New search in {stateLabel}
        </Link>
      </div>

      <div className="license__sections">
        <section aria-labelledby="sec-licensee">
          <h2 id="sec-licensee">Licensee</h2>
          <dl className="facts">
            <Fact term="Business" from={from("business")}>
              {license.business || none}
            </Fact>
            <Fact term="Owner" from={from("owner")}>
              {license.owner || none}
            </Fact>
            <Fact term="Phone" from={from("phone")}>
              {license.phone ?? none}
            </Fact>
          </dl>
        </section>
        <section aria-labelledby="sec-premises">
          <h2 id="sec-premises">Premises</h2>
          <dl className="facts">
            <Fact term="Address" from={from("address")}>
              {address.length ? (
                <address>
                  {address.map((line, i) => (
                    <span key={i} className="address__line">
                      {line}
                    </span>
                  ))}
                </address>
              ) : (
                <span className="none">No address given by the state</span>
              )}
            </Fact>
            <Fact term="County" from={from("address")}>
              {license.address.county || unpublished}
            </Fact>
          </dl>
        </section>
        <section aria-labelledby="sec-license">
          <h2 id="sec-license">License</h2>
          <dl className="facts">
            <Fact term="Number">
              <span className="mono">{license.license}</span>
            </Fact>
            <Fact term="Status" from={from("status")}>
              {license.status.trim() ? license.status : none}
              {gloss ? <span className="muted"> ({gloss})</span> : null}
            </Fact>
            <Fact term="Type" from={from("type")}>
              {codes("type", details.type)}
            </Fact>
            <Fact term="Class" from={from("class")}>
              {codes("class", details.class)}
            </Fact>
            <Fact term="Description" from={from("description")}>
              {details.description ?? none}
            </Fact>
          </dl>
        </section>
        <section aria-labelledby="sec-dates">
          <h2 id="sec-dates">Dates</h2>
          <dl className="facts">
            <Fact term="Effective" from={from("effective")}>
              {date(dates.effective)}
            </Fact>
            <Fact term="Expires" from={from("expires")}>
              {date(dates.expires)}
            </Fact>
            <Fact term="First issued" from={from("issued_original")}>
              {date(dates.issued_original)}
            </Fact>
            <Fact term="Last issued" from={from("issued_latest")}>
              {date(dates.issued_latest)}
            </Fact>
          </dl>
        </section>
        <section aria-labelledby="sec-record" className="license__record">
          <h2 id="sec-record">Record</h2>
          <dl className="facts">
            <Fact term="Source">
              {provenance ? (
                <>
                  {provenance.source.agency}: {provenance.source.title}
                  {provenance.source.file ? <span className="muted"> ({provenance.source.file})</span> : null}
                  {older.map((list) => (
                    <span key={list.source.id} className="facts__from">
                      {factsLabel(list)}: {list.source.title}
                      {list.source.file ? <span className="muted"> ({list.source.file})</span> : null}
                    </span>
                  ))}
                </>
              ) : (
                <span className="none">Not given by the service</span>
              )}
            </Fact>
            <Fact term="Data as of">
              {asOf ? formatIsoDate(asOf) : <span className="none">Not given</span>}
              {provenance?.source.as_of_from ? <span className="muted"> ({provenance.source.as_of_from})</span> : null}
              {older.map((list) => (
                <span key={list.source.id} className="facts__from">
                  {factsLabel(list)}: {list.asOf ? formatIsoDate(list.asOf) : "not given"}
                  <span className="muted"> ({list.source.as_of_from})</span>
                </span>
              ))}
            </Fact>
            <Fact term="Loaded into License Lookup">{formatUpdatedAt(license.updated_at)} UTC</Fact>
            <Fact term="Retrieved">{formatLocalTime(retrievedAt.toISOString())}</Fact>
            <Fact term="Page">
              <span className="url">{window.location.href}</span>
            </Fact>
          </dl>
        </section>
      </div>
      {history}
    </article>
  );
}

/** A label and its value; `from`: the older list the value comes from, named under it. */
function Fact({ term, from, children }: { term: string; from?: FieldSource | undefined; children: ReactNode }) {
  return (
    <div className="facts__row">
      <dt>{term}</dt>
      <dd>
        {children}
        {from ? <span className="facts__from">{fromOlderList(from)}</span> : null}
      </dd>
    </div>
  );
}
