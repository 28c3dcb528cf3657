import { startChild, type ChildServer } from "./child-server.ts";

/** What each endpoint's load asks of the bare server: one path standing for all of its answers. */
export const BARE_PATHS = { license: ["/license"], search: ["/search"], searchBefore: ["/search"] };

/**
 * The bare node:http server (bare-server.ts) answering the bytes of one real /v2/license and one
 * real /v2/search response of the API at `apiUrl`, so that both sides of a ratio send the same bytes.
 */
export async function startBareTwin(
  apiUrl: string,
  headers: Record<string, string>,
  sample: { license: string; search: string },
): Promise<ChildServer> {
  const body = async (path: string) => (await fetch(apiUrl + path, { headers })).text();
  const bodies = { "/license": await body(sample.license), "/search": await body(sample.search) };
  return startChild("./bare-server.ts", [], { BARE_BODIES: JSON.stringify(bodies) });
}
