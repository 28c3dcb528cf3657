import { daysUntil, formatIsoDate, localIsoDate } from "../shared/dates.ts";

/** How close an expiry date must be to get a notice. */
const EXPIRY_NOTICE_DAYS = 60;

interface Props {
  expires: string | null;
  status: string;
  now?: Date;
}

/** A warning once the expiry date has passed (whatever the status says), a notice when it is near. */
export function ExpiryNotice({ expires, status, now = new Date() }: Props) {
  if (!expires) {
    return (
      <div className="notice notice--info">
        <p className="notice__title">No expiry date published</p>
        <p>The state’s records give no expiry date for this license. Confirm its term with the state authority.</p>
      </div>
    );
  }
  const days = daysUntil(expires, localIsoDate(now));
  const on = formatIsoDate(expires);
  if (days < 0) {
    const stillActive = status.trim().toLowerCase() === "active";
    return (
      <div className="notice notice--warning">
        <p className="notice__title">Expired on {on}</p>
        <p>
          {stillActive
            ? "The record still says “active”, but its expiry date has passed. Confirm with the state authority before relying on it."
            : "Confirm the license’s current standing with the state authority."}
        </p>
      </div>
    );
  }
  if (days <= EXPIRY_NOTICE_DAYS) {
    return (
      <div className="notice notice--info">
        <p className="notice__title">
          {days === 0 ? "Expires today" : `Expires in ${days} day${days === 1 ? "" : "s"}`}, on {on}
        </p>
        <p>Check that a renewal has been filed before relying on this license past that date.</p>
      </div>
    );
  }
  return null;
}
