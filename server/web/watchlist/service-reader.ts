import { z } from "zod/mini";
import {
  LicenseListResponseSchema,
  LicenseResponseSchema,
  MAX_BATCH,
  ProvenanceListResponseSchema,
  SearchResponseSchema,
  StatesResponseSchema,
  type Provenance,
  type StateCoverage,
} from "../../../src/contract/envelopes.ts";
import type { License } from "../../../src/contract/license.ts";
import { ProblemSchema } from "../../../src/contract/problem.ts";

export interface ServiceReaderOptions {
  /** The service, without `/v2`. */
  baseUrl: string;
  apiKey: string;
  /**
   * At most this many requests a second: the check shares the team's key with its clerks, and
   * must leave them most of its rate limit (ours: 150 a second).
   */
  requestsPerSecond?: number;
  /** One request's limit. */
  timeoutMs?: number;
  /** The longest a 429's Retry-After is waited out before the request fails. */
  maxWaitMs?: number;
}

export const DEFAULT_REQUESTS_PER_SECOND = 8;

/** The state is outside the key, or the service holds none of it: the licenses are not covered. */
export class NotCoveredError extends Error {}

export interface ReadAnswer {
  licenses: (License | null)[];
  provenance: (Provenance | null)[];
}

/**
 * Reads licenses the way the app does: our batch extension (up to MAX_BATCH numbers a request,
 * with their provenance) where the service has it, else the contract's `/v2/license` one by one.
 */
export function createServiceReader({
  baseUrl,
  apiKey,
  requestsPerSecond = DEFAULT_REQUESTS_PER_SECOND,
  timeoutMs = 10_000,
  maxWaitMs = 120_000,
}: ServiceReaderOptions) {
  const base = baseUrl.replace(/\/+$/, "");
  const gapMs = 1000 / requestsPerSecond;
  let nextStart = 0;
  let batch: boolean | undefined;

  async function paced() {
    const now = Date.now();
    const at = Math.max(now, nextStart);
    nextStart = at + gapMs;
    if (at > now) await sleep(at - now);
  }

  /** The body of a 200 (parsed), or null for a 404; anything else throws, after waiting out 429s. */
  async function get<S extends z.core.$ZodType>(path: string, schema: S): Promise<z.infer<S> | null> {
    let waited = 0;
    for (;;) {
      await paced();
      const response = await fetch(`${base}${path}`, {
        headers: { accept: "application/json", authorization: `Bearer ${apiKey}` },
        redirect: "manual",
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (response.status === 429) {
        await response.body?.cancel();
        const wait = retryAfterMs(response.headers.get("retry-after"));
        if (waited + wait > maxWaitMs) throw new Error("the license service kept refusing requests (429)");
        waited += wait;
        await sleep(wait);
        continue;
      }
      if (response.status === 404) {
        await response.body?.cancel();
        return null;
      }
      if (!response.ok) {
        const problem = z.safeParse(ProblemSchema, await response.json().catch(() => null)).data;
        throw new Error(
          `the license service answered ${response.status}${problem?.detail ? `: ${problem.detail}` : ""}`,
        );
      }
      const parsed = z.safeParse(schema, await response.json());
      if (!parsed.success) throw new Error(`the license service's answer to ${path} did not match the contract`);
      return parsed.data;
    }
  }

  const licensePath = (state: string, number: string) =>
    `/v2/license/${encodeURIComponent(state)}/${encodeURIComponent(number)}`;
  const listPath = (route: string, state: string, numbers: readonly string[]) =>
    `/v2/${route}/${encodeURIComponent(state)}?${new URLSearchParams(numbers.map((n) => ["license", n]))}`;

  async function one(state: string, number: string): Promise<License | null> {
    const answer = await get(licensePath(state, number), LicenseResponseSchema);
    // The contract answers a covered state with 200 and data null; a 404 is a state outside the key.
    if (answer === null) throw new NotCoveredError(state);
    return answer.data;
  }

  async function part(state: string, numbers: readonly string[]): Promise<ReadAnswer> {
    if (batch !== false) {
      const [licenses, provenance] = await Promise.all([
        get(listPath("licenses", state, numbers), LicenseListResponseSchema),
        get(listPath("provenance", state, numbers), ProvenanceListResponseSchema),
      ]);
      if (licenses) {
        batch = true;
        return { licenses: licenses.data, provenance: provenance?.data ?? numbers.map(() => null) };
      }
      // A 404: a state outside the key, or a service without the extension. The contract's route tells.
      const first = await one(state, numbers[0]!);
      if (batch === true) throw new NotCoveredError(state);
      batch = false;
      const rest = await eachAtMost(numbers.slice(1), 2, (number) => one(state, number));
      return { licenses: [first, ...rest], provenance: numbers.map(() => null) };
    }
    return { licenses: await eachAtMost(numbers, 2, (n) => one(state, n)), provenance: numbers.map(() => null) };
  }

  return {
    /** The licenses of `numbers` of one state, in their order, MAX_BATCH a call; NotCoveredError for a state outside the key. */
    read: part,
    batchSize: MAX_BATCH,
    /** Up to 10 licenses whose business or owner name matches, best first (the contract's search), as the page asks. */
    async byName(state: string, name: string): Promise<License[]> {
      const answer = await get(`/v2/search?${new URLSearchParams({ state, name })}`, SearchResponseSchema);
      if (answer === null) throw new NotCoveredError(state);
      return answer.data;
    },
    /** The states the key reads, with their sources (`/v2/states`); null from a service without the extension. */
    async coverage(): Promise<StateCoverage[] | null> {
      return (await get("/v2/states", StatesResponseSchema))?.data ?? null;
    },
  };
}

export type ServiceReader = ReturnType<typeof createServiceReader>;

async function eachAtMost<T, R>(items: readonly T[], concurrency: number, work: (item: T) => Promise<R>) {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return out;
}

function retryAfterMs(value: string | null): number {
  if (value && /^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = value ? Date.parse(value) : NaN;
  return Number.isNaN(at) ? 1000 : Math.max(0, at - Date.now());
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
