import { useEffect, type RefObject } from "react";
import { useLocation } from "react-router";

/** After an in-app navigation, move focus to `ref` (the page's heading); a cold page load keeps the browser's focus. */
export function useArrivalFocus(ref: RefObject<HTMLElement | null>): void {
  const { key } = useLocation();
  useEffect(() => {
    if (key !== "default") ref.current?.focus();
  }, [key, ref]);
}
