import { Link } from "react-router";
import { licenseDates, type License } from "../contract/license.ts";
import type { SearchField } from "../contract/search-query.ts";
import { formatIsoDate } from "../shared/dates.ts";
import { Highlight } from "./highlight.tsx";
import { licenseUrl } from "./search-url.ts";

interface Props {
  license: License;
  by: SearchField;
  words: readonly string[];
}

export function ResultItem({ license, by, words }: Props) {
  const { address } = license;
  const { expires } = licenseDates(license);
  const marked = (text: string, field: SearchField) => <Highlight text={text} words={by === field ? words : []} />;
  return (
    <li className="result">
      <div className="result__head">
        <h3 className="result__title">
          <Link to={licenseUrl(license.state, license.license)}>{marked(license.business, "name")}</Link>
        </h3>
        <span className="badge" data-status={license.status.toLowerCase()}>
          {license.status}
        </span>
      </div>
      <dl className="facts facts--compact">
        <div>
          <dt>Owner</dt>
          <dd>{marked(license.owner, "name")}</dd>
        </div>
        <div>
          <dt>Address</dt>
          <dd>
            {marked(address.line_1, "address")}, {address.city}, {address.state} {address.zip}
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
    </li>
  );
}
