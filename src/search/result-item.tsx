import { memo } from "react";
import type { Provenance } from "../contract/envelopes.ts";
import { licenseDates, type License } from "../contract/license.ts";
import type { SearchField } from "../contract/search-query.ts";
import { addressLines } from "../shared/address-lines.ts";
import { formatIsoDate } from "../contract/calendar-date.ts";
import { licenseUrl } from "../shared/page-urls.ts";
import { sourceLine } from "../shared/record-source.ts";
import type { VerdictWord } from "../contract/verdict.ts";
import { VerdictBadge } from "../shared/verdict-badge.tsx";
import { Highlight } from "./highlight.tsx";

interface Props {
  license: License;
  verdict: VerdictWord;
  /** Why the verdict, in one sentence. */
  reason: string;
  provenance: Provenance | null;
  by: SearchField;
  /** The words of the search this license matches only within a typo or two of, joined; empty when none. */
  closeFor: string;
}

/**
 * One result. Drawn again only when one of its props changes: the search's records keep their identity from one
 * answer to the next where nothing in them differs (license-queries.ts), and the marked words come by context.
 */
export const ResultItem = memo(function ResultItem({ license, verdict, reason, provenance, by, closeFor }: Props) {
  const { expires } = licenseDates(license);
  const [street, ...rest] = addressLines(license.address);
  const marked = (text: string, field: SearchField) => <Highlight text={text} marked={by === field} />;
  return (
    <li className="result">
      <div className="result__head">
        <h3 className="result__title">
          {/* A plain link: the list opens it in the app (search-results.tsx); ten router links cost each answer 0.6 ms. */}
          <a href={licenseUrl(license.state, license.license)} data-license={license.license}>
            {marked(license.business, "name")}
          </a>
        </h3>
        <VerdictBadge verdict={verdict} />
      </div>
      {closeFor ? <p className="result__close">close match for {closeFor}</p> : null}
      <p className="result__reason">{reason}</p>
      <dl className="facts facts--compact">
        <div>
          <dt>Owner</dt>
          <dd>{marked(license.owner, "name")}</dd>
        </div>
        <div>
          <dt>Address</dt>
          <dd>
            {street === undefined ? (
              <span className="none">No address given</span>
            ) : (
              <>
                {license.address.line_1.trim() ? marked(street, "address") : street}
                {rest.length ? `, ${rest.join(", ")}` : null}
              </>
            )}
          </dd>
        </div>
        <div>
          <dt>License</dt>
          <dd className="mono">{license.license}</dd>
        </div>
        <div>
          <dt>Expires</dt>
          <dd>{expires ? formatIsoDate(expires) : "Not published"}</dd>
        </div>
      </dl>
      <p className="result__source">{sourceLine(provenance)}</p>
    </li>
  );
});
