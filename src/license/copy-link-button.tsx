import { useState } from "react";

/** Copies the page's own address: the link people paste into tickets. */
export function CopyLinkButton() {
  const [message, setMessage] = useState("");
  async function copy() {
    try {
      await navigator.clipboard.writeText(window.location.href);
      setMessage("Link copied.");
    } catch {
      setMessage(`Copy this link: ${window.location.href}`);
    }
  }
  return (
    <>
      <button type="button" className="button" onClick={() => void copy()}>
        Copy link
      </button>
      <span className="action-status" role="status">
        {message}
      </span>
    </>
  );
}
