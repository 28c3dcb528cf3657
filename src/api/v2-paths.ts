// The service's addresses, each written once: a number is percent-encoded whole, never reformatted.
const part = encodeURIComponent;

export function licensePath(state: string, license: string): string {
  return `/v2/license/${part(state)}/${part(license)}`;
}

export function provenancePath(state: string, license: string): string {
  return `/v2/provenance/${part(state)}/${part(license)}`;
}

/** Our list extensions: `/v2/licenses/{state}` or `/v2/provenance/{state}`, `license` once per number. */
export function listPath(route: "licenses" | "provenance", state: string, licenses: readonly string[]): string {
  return `/v2/${route}/${part(state)}?${new URLSearchParams(licenses.map((license) => ["license", license]))}`;
}
