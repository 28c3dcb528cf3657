/** The search form as a link: its state, its mode and what is typed (a license number opens no search of its own). */
export function searchFormUrl({
  state,
  by,
  q = "",
}: {
  state: string;
  by: "name" | "address" | "license";
  q?: string;
}) {
  const params = new URLSearchParams({ state, by });
  if (q.trim()) params.set("q", q);
  return `/?${params}`;
}

/** A license's page: the link a clerk pastes, `/license/ny/0012345`, the number kept exactly as served. */
export function licenseUrl(state: string, license: string): string {
  return `/license/${state}/${encodeURIComponent(license)}`;
}

/** The same page as a whole address, for a file that leaves the app (an exported CSV). */
export function absoluteLicenseUrl(state: string, license: string): string {
  return `${location.origin}${licenseUrl(state, license)}`;
}
