import { createContext, useContext, useLayoutEffect, useRef, useState, useTransition, type ReactNode } from "react";
import {
  NavigationType,
  Router,
  UNSAFE_createBrowserHistory as createBrowserHistory,
  type Location,
} from "react-router";

const NavigationPending = createContext(false);

/** True while a navigation waits on the next page's code or data; the current page stays on screen meanwhile. */
export function useNavigationPending(): boolean {
  return useContext(NavigationPending);
}

interface HistoryState {
  action: NavigationType;
  location: Location;
}

/**
 * React Router's `BrowserRouter`, with the two things its plain form does not give: whether a navigation is
 * pending (each one to another path is a transition, so the page it leaves stays until the next can show in
 * full), and the scroll position: a new page opens at the top, Back and Forward return to where the reader was.
 */
export function BrowserRouter({ children }: { children: ReactNode }) {
  const [history] = useState(() => createBrowserHistory({ v5Compat: true }));
  const [state, setState] = useState<HistoryState>({ action: history.action, location: history.location });
  const [pending, startTransition] = useTransition();
  const shown = useRef(state.location);
  const [positions] = useState(() => new Map<string, number>());

  useLayoutEffect(() => {
    window.history.scrollRestoration = "manual";
    return history.listen(({ action, location }) => {
      positions.set(shown.current.key, window.scrollY);
      // The same page with another query (a search as it is typed) has no code or data to wait on: shown at
      // once, not after a transition's extra renders, which cost a keystroke's results a frame or two.
      if (location.pathname === shown.current.pathname) setState({ action, location });
      else startTransition(() => setState({ action, location }));
    });
  }, [history, positions]);

  useLayoutEffect(() => {
    const { action, location } = state;
    if (shown.current === location) return;
    shown.current = location;
    // A link to a place in the page (the skip link) is the browser's to scroll to.
    if (location.hash) return;
    if (action === NavigationType.Push) window.scrollTo(0, 0);
    else if (action === NavigationType.Pop) window.scrollTo(0, positions.get(location.key) ?? 0);
  }, [state, positions]);

  return (
    <NavigationPending value={pending}>
      <Router location={state.location} navigationType={state.action} navigator={history}>
        {children}
      </Router>
    </NavigationPending>
  );
}
