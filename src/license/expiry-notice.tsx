import { formatIsoDate } from "../contract/calendar-date.ts";
import { daysUntil, localIsoDate } from "../shared/dates.ts";

/** How close an expiry date must be to get a notice. */
const EXPIRY_NOTICE_DAYS = 60;

interface Props {
  expires: string | null;
  now?: Date;
}

/** For a license that is valid today: a notice when its expiry is near (the verdict speaks for a past one). */
export function ExpiryNotice({ expires, now = new Date() }: Props) {
  if (!expires) return null;
  const days = daysUntil(expires, localIsoDate(now));
  if (days < 0 || days > EXPIRY_NOTICE_DAYS) return null;
  return (
    <div className="notice notice--info">
      <p className="notice__title">
        {days === 0 ? "Expires today" : `Expires in ${days} day${days === 1 ? "" : "s"}`}, on {formatIsoDate(expires)}
      </p>
      <p>Check that a renewal has been filed before relying on this license past that date.</p>
    </div>
  );
}
