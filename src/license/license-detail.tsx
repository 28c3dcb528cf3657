import { useRef, type ReactNode } from "react";
import { Link } from "react-router";
import { licenseDates, type License } from "../contract/license.ts";
import { stateName } from "../contract/states.ts";
import { CopyLinkButton } from "./copy-link-button.tsx";
import { formatIsoDate, formatUpdatedAt } from "../shared/dates.ts";
import { ExpiryNotice } from "./expiry-notice.tsx";
import { useArrivalFocus } from "../shared/use-arrival-focus.ts";

interface Props {
  license: License;
  /** When this copy was fetched: part of the audit record. */
  retrievedAt: Date;
}

export function LicenseDetail({ license, retrievedAt }: Props) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useArrivalFocus(headingRef);

  const dates = licenseDates(license);
  const { address, details } = license;
  const stateLabel = stateName(license.state) ?? license.state.toUpperCase();
  const none = <span className="none">None given</span>;
  const unpublished = <span className="none">Not published by the state</span>;
  const date = (iso: string | null) => (iso ? formatIsoDate(iso) : unpublished);

  return (
    <article className="license">
      <title>{`${license.business} – ${license.state.toUpperCase()} ${license.license} – License Lookup`}</title>
      <p className="print-only print-title">License Lookup · audit record</p>
      <header className="license__header">
        <p className="eyebrow">{stateLabel} liquor license</p>
        <h1 ref={headingRef} tabIndex={-1}>
          {license.business}
        </h1>
        <p className="license__id">
          <span className="mono license__number">{license.license}</span>
          <span className="badge" data-status={license.status.toLowerCase()}>
            {license.status}
          </span>
        </p>
      </header>

      <ExpiryNotice expires={dates.expires} status={license.status} />

      <div className="license__actions no-print">
        <CopyLinkButton />
        <button type="button" className="button" onClick={() => window.print()}>
          Print record
        </button>
        <Link className="button button--quiet" to={`/?state=${license.state}`}>
          New search in {stateLabel}
        </Link>
      </div>

      <div className="license__sections">
        <section aria-labelledby="sec-licensee">
          <h2 id="sec-licensee">Licensee</h2>
          <dl className="facts">
            <Fact term="Business">{license.business}</Fact>
            <Fact term="Owner">{license.owner}</Fact>
            <Fact term="Phone">{license.phone ?? none}</Fact>
          </dl>
        </section>
        <section aria-labelledby="sec-premises">
          <h2 id="sec-premises">Premises</h2>
          <dl className="facts">
            <Fact term="Address">
              <address>
                {address.line_1}
                {address.line_2 ? (
                  <>
                    <br />
                    {address.line_2}
                  </>
                ) : null}
                <br />
                {address.city}, {address.state} {address.zip}
              </address>
            </Fact>
            <Fact term="County">{address.county || unpublished}</Fact>
          </dl>
        </section>
        <section aria-labelledby="sec-license">
          <h2 id="sec-license">License</h2>
          <dl className="facts">
            <Fact term="Number">
              <span className="mono">{license.license}</span>
            </Fact>
            <Fact term="Status">{license.status}</Fact>
            <Fact term="Type">{details.type}</Fact>
            <Fact term="Class">{details.class ?? none}</Fact>
            <Fact term="Description">{details.description ?? none}</Fact>
          </dl>
        </section>
        <section aria-labelledby="sec-dates">
          <h2 id="sec-dates">Dates</h2>
          <dl className="facts">
            <Fact term="Effective">{date(dates.effective)}</Fact>
            <Fact term="Expires">{date(dates.expires)}</Fact>
            <Fact term="First issued">{date(dates.issued_original)}</Fact>
            <Fact term="Last issued">{date(dates.issued_latest)}</Fact>
          </dl>
        </section>
        <section aria-labelledby="sec-record" className="license__record">
          <h2 id="sec-record">Record</h2>
          <dl className="facts">
            <Fact term="Record updated">
              {formatUpdatedAt(license.updated_at)} <span className="muted">({license.updated_at})</span>
            </Fact>
            <Fact term="Retrieved">
              {retrievedAt.toLocaleString("en-US", { dateStyle: "long", timeStyle: "long" })}
            </Fact>
            <Fact term="Page">
              <span className="url">{window.location.href}</span>
            </Fact>
          </dl>
        </section>
      </div>
    </article>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="facts__row">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}
