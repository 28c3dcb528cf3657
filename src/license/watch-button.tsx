import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { sessionQuery } from "../api/session-query.ts";
import { isMissingExtension } from "../api/api-error.ts";
import { watchlistMutations, watchlistQueries, watchWriteFailure } from "../api/watchlist-queries.ts";
import { mayChange } from "../shared/may-change.ts";

interface Said {
  text: string;
  failed: boolean;
}

/**
 * Watch this license, or stop watching it: a toggle whose words say the state it is in. Nothing at all
 * where the app is served without a watchlist (the route answers 404), nor for an auditor, who changes nothing.
 */
export function WatchButton({ state, license }: { state: string; license: string }) {
  const session = useQuery(sessionQuery());
  const entry = useQuery(watchlistQueries.entry(state, license));
  const watch = useMutation(watchlistMutations.watch());
  const unwatch = useMutation(watchlistMutations.unwatch());
  const [said, setSaid] = useState<Said | null>(null);

  if (!mayChange(session.data)) return null;
  // Its room is kept while the watchlist answers, so the buttons beside it and the page below never move.
  if (entry.isPending) {
    return (
      <span className="button watch-button watch-button--pending" aria-hidden="true">
        Watch
      </span>
    );
  }
  if (entry.isError && isMissingExtension(entry.error)) return null;
  if (entry.isError) {
    return (
      <span className="action-status action-status--failed">The watchlist did not answer: reload to try again.</span>
    );
  }

  const watched = entry.data !== null;
  const busy = watch.isPending || unwatch.isPending;
  const failed = (error: Error) => setSaid({ text: watchWriteFailure(error), failed: true });

  function toggle() {
    if (busy) return;
    setSaid(null);
    if (watched) {
      unwatch.mutate(
        { state, license },
        { onSuccess: () => setSaid({ text: "No longer watched.", failed: false }), onError: failed },
      );
    } else {
      watch.mutate(
        { state, license },
        { onSuccess: () => setSaid({ text: "Added to the team’s watchlist.", failed: false }), onError: failed },
      );
    }
  }

  return (
    <>
      <button
        type="button"
        className="button watch-button"
        aria-pressed={watched}
        aria-busy={busy}
        title={watched ? "Stop watching" : "Add to the team’s watchlist"}
        onClick={toggle}
      >
        {watched ? "Watching" : "Watch"}
      </button>
      {watched ? <Link to="/watchlist">Open the watchlist</Link> : null}
      <span className={`action-status${said?.failed ? " action-status--failed" : ""}`} role="status">
        {said?.text}
      </span>
    </>
  );
}
