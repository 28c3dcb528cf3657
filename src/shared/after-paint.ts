let shown!: () => void;
const pageShown = new Promise<void>((resolve) => (shown = resolve));
// A page that never shows (an error page, a service that never answers) still gets what waits, a little later.
setTimeout(() => shown(), 3_000);

/** Called by the layout once the first page has been put on screen. */
export function markPageShown(): void {
  shown();
}

/**
 * Resolves once the first page is on screen and painted. Code a page can show without (recording what it showed,
 * the account corner) is fetched after that, so it never holds the page up.
 */
export async function afterPaint(): Promise<void> {
  await pageShown;
  await new Promise<void>((resolve) => {
    if (typeof requestAnimationFrame === "function") requestAnimationFrame(() => setTimeout(resolve, 0));
    else setTimeout(resolve, 0);
  });
}
