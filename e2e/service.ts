import { z } from "zod/mini";
import { LicenseResponseSchema, SearchResponseSchema } from "../src/contract/envelopes.ts";
import type { License } from "../src/contract/license.ts";

/** The service itself, asked directly with the test key: what the pages must show comes from here. */
async function get(path: string): Promise<Response> {
  return fetch(`${process.env.E2E_API_URL}${path}`, {
    headers: { Authorization: `Bearer ${process.env.E2E_API_KEY}` },
  });
}

export async function apiLicense(state: string, license: string): Promise<License | null> {
  const response = await get(`/v2/license/${state}/${encodeURIComponent(license)}`);
  if (!response.ok) throw new Error(`license ${state}/${license}: HTTP ${response.status}`);
  return z.parse(LicenseResponseSchema, await response.json()).data;
}

export async function apiSearch(state: string, by: "name" | "address", q: string): Promise<License[]> {
  const response = await get(`/v2/search?${new URLSearchParams({ state, [by]: q })}`);
  if (!response.ok) throw new Error(`search ${by}=${q}: HTTP ${response.status}`);
  return z.parse(SearchResponseSchema, await response.json()).data;
}

export async function apiStatus(path: string): Promise<number> {
  return (await get(path)).status;
}

/** The demo license that every demo database holds. */
export const DEMO = { state: "ny", license: "0012345" } as const;

/** The longest word of a name: the one most likely to find it again. */
export function telltaleWord(text: string): string {
  return text.split(/[^A-Za-z0-9]+/).reduce((a, b) => (b.length > a.length ? b : a), "");
}
