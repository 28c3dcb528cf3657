import type { ReactNode } from "react";
import { formatIsoDate } from "../contract/calendar-date.ts";
import { licenseDates, type License } from "../contract/license.ts";
import { addressLines } from "../shared/address-lines.ts";
import { formatUpdatedAt } from "../shared/dates.ts";

/** The license record as it was stored with the entry, field by field; never today's copy. */
export function ReceiptRecord({ record }: { record: License }) {
  const dates = licenseDates(record);
  const none = <span className="none">None given</span>;
  const date = (iso: string | null) => (iso ? formatIsoDate(iso) : none);
  const address = addressLines(record.address);
  return (
    <dl className="facts">
      <Fact term="Business">{record.business || none}</Fact>
      <Fact term="Owner">{record.owner || none}</Fact>
      <Fact term="Phone">{record.phone ?? none}</Fact>
      <Fact term="Address">{address.length ? address.join(", ") : none}</Fact>
      <Fact term="County">{record.address.county || none}</Fact>
      <Fact term="Number">
        <span className="mono">{record.license}</span>
      </Fact>
      <Fact term="Status">{record.status.trim() || none}</Fact>
      <Fact term="Type">{record.details.type ?? none}</Fact>
      <Fact term="Class">{record.details.class ?? none}</Fact>
      <Fact term="Description">{record.details.description ?? none}</Fact>
      <Fact term="Effective">{date(dates.effective)}</Fact>
      <Fact term="Expires">{date(dates.expires)}</Fact>
      <Fact term="First issued">{date(dates.issued_original)}</Fact>
      <Fact term="Last issued">{date(dates.issued_latest)}</Fact>
      <Fact term="Loaded into License Lookup">{formatUpdatedAt(record.updated_at)} UTC</Fact>
    </dl>
  );
}

export function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="facts__row">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}
