import { useState } from "react";

/** A one-time password link to hand to its person: shown once, with a button that copies it. */
export function OneTimeLink({ email, link }: { email: string; link: string }) {
  const [copied, setCopied] = useState("");
  return (
    <div className="notice notice--info one-time-link" role="status">
      <p className="notice__title">Send this link to {email}: it sets their password, once.</p>
      <p>
        <input className="mono one-time-link__text" readOnly value={link} aria-label={`Password link for ${email}`} />{" "}
        <button
          type="button"
          className="button"
          onClick={() =>
            void navigator.clipboard.writeText(link).then(
              () => setCopied("Copied."),
              () => setCopied("Select the link and copy it."),
            )
          }
        >
          Copy
        </button>{" "}
        <span className="action-status">{copied}</span>
      </p>
    </div>
  );
}
