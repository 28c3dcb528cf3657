import { Link } from "react-router";
import type { Provenance } from "../contract/envelopes.ts";
import { licenseDates, type License } from "../contract/license.ts";
import type { SearchField } from "../contract/search-query.ts";
import { addressLines } from "../shared/address-lines.ts";
import { formatIsoDate } from "../shared/dates.ts";
import { licenseUrl } from "../shared/page-urls.ts";
import { sourceLine } from "../shared/record-source.ts";
import type { Verdict } from "../shared/verdict.ts";
import { VerdictBadge } from "../shared/verdict-badge.tsx";
import { Highlight } from "./highlight.tsx";

interface Props {
  license: License;
  verdict: Verdict;
  provenance: Provenance | null;
  by: SearchField;
  /** What marks the search's words in the field searched. */
  pattern: RegExp | null;
  /** The words of the search this license matches only within a typo or two of. */
  closeFor: readonly string[];
}

export function ResultItem({ license, verdict, provenance, by, pattern, closeFor }: Props) {
  const { expires } = licenseDates(license);
  const [street, ...rest] = addressLines(license.address);
  const marked = (text: string, field: SearchField) => (
    <Highlight text={text} pattern={by === field ? pattern : null} />
  );
  return (
    <li className="result">
      <div className="result__head">
        <h3 className="result__title">
          <Link to={licenseUrl(license.state, license.license)}>{marked(license.business, "name")}</Link>
        </h3>
        <VerdictBadge verdict={verdict.verdict} />
      </div>
      {closeFor.length ? <p className="result__close">close match for {closeFor.join(", ")}</p> : null}
      <p className="result__reason">{verdict.reason}</p>
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
}
