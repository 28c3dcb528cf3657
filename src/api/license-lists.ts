import type { z } from "zod/mini";
import {
  LicenseListResponseSchema,
  LicenseResponseSchema,
  MAX_BATCH,
  ProvenanceListResponseSchema,
  SearchResponseSchema,
  type Provenance,
} from "../contract/envelopes.ts";
import type { License } from "../contract/license.ts";
import { ApiError, nullsWithoutExtension } from "./api-error.ts";
import { fetchJson } from "./fetch-json.ts";
import { licensePath, listPath } from "./v2-paths.ts";

/** What the service said about each number asked, in the order asked; null where the state holds none. */
export interface NumbersAnswer {
  licenses: (License | null)[];
  /** Null everywhere from a service that does not say where records come from. */
  provenance: (Provenance | null)[];
}

/**
 * How a list is read from one service: through our batch extension (`/v2/licenses/{state}`, up to
 * MAX_BATCH numbers a request), or, from a service with only the contract, one `/v2/license` per
 * number, a few at a time. Which one is found out on the first state asked and kept.
 */
export class LicenseLists {
  private batch: boolean | undefined;
  /** Called while a 429 is waited out, with the seconds to wait: the rows are not failed for it. */
  onWait: (seconds: number) => void = () => {};

  constructor(
    private readonly signal?: AbortSignal,
    private readonly concurrency = 4,
  ) {}

  /** True once the service is known to answer only one license a request. */
  get oneByOne(): boolean {
    return this.batch === false;
  }

  /** The licenses and provenance of `numbers` (any count) of one state; ApiError "unavailable" when the state is not covered. */
  async numbers(state: string, numbers: readonly string[]): Promise<NumbersAnswer> {
    const licenses: (License | null)[] = [];
    const provenance: (Provenance | null)[] = [];
    for (let i = 0; i < numbers.length; i += MAX_BATCH) {
      const part = await this.part(state, numbers.slice(i, i + MAX_BATCH));
      licenses.push(...part.licenses);
      provenance.push(...part.provenance);
    }
    return { licenses, provenance };
  }

  /** Up to 10 licenses whose business or owner name matches, best first (the contract's search). */
  async byName(state: string, name: string): Promise<License[]> {
    const params = new URLSearchParams({ state, name });
    return (await this.get(`/v2/search?${params}`, SearchResponseSchema)).data;
  }

  private async part(state: string, numbers: string[]): Promise<NumbersAnswer> {
    if (this.batch !== false) {
      try {
        const [licenses, provenance] = await Promise.all([
          this.get(listPath("licenses", state, numbers), LicenseListResponseSchema),
          this.get(listPath("provenance", state, numbers), ProvenanceListResponseSchema).catch(
            nullsWithoutExtension(numbers.length),
          ),
        ]);
        this.batch = true;
        return { licenses: licenses.data, provenance: provenance.data };
      } catch (error) {
        if (!(error instanceof ApiError && error.kind === "unavailable") || this.batch === true) throw error;
        // A 404 is a state outside the key, or a service without the extension: the contract's route tells.
        const first = await this.one(state, numbers[0]!); // throws "unavailable" for a state outside the key
        this.batch = false;
        const rest = await this.eachAtMost(numbers.slice(1), (number) => this.one(state, number));
        return { licenses: [first, ...rest], provenance: numbers.map(() => null) };
      }
    }
    const licenses = await this.eachAtMost(numbers, (number) => this.one(state, number));
    return { licenses, provenance: numbers.map(() => null) };
  }

  private async one(state: string, number: string): Promise<License | null> {
    return (await this.get(licensePath(state, number), LicenseResponseSchema)).data;
  }

  /** `work` for each item, `concurrency` at a time, answers in the items' order. */
  private async eachAtMost<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
    const out = new Array<R>(items.length);
    let next = 0;
    const worker = async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await work(items[i]!);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, items.length) }, worker));
    return out;
  }

  /** A GET that waits out each 429 for as long as the service asks, and tries again. */
  private async get<S extends z.core.$ZodType>(path: string, schema: S): Promise<z.infer<S>> {
    for (;;) {
      try {
        return await fetchJson(path, schema, { signal: this.signal });
      } catch (error) {
        if (!(error instanceof ApiError && error.kind === "rate-limited")) throw error;
        const seconds = error.details.retryAfter ?? 1;
        this.onWait(seconds);
        await sleep(seconds * 1000, this.signal);
      }
    }
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });
}
