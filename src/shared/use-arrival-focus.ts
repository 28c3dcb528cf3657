import { useEffect, type RefObject } from "react";
import { useLocation } from "react-router";

/**
 * After an in-app navigation, move focus to `ref` (the page's or the results' heading) once `ready`;
 * a cold page load keeps the browser's focus.
 */
export function useArrivalFocus(ref: RefObject<HTMLElement | null>, ready = true): void {
  const { key } = useLocation();
  useEffect(() => {
    if (ready && key !== "default") ref.current?.focus();
  }, [ready, key, ref]);
}
