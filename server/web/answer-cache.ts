export interface CachedAnswer {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

export interface AnswerCacheOptions {
  /** How long an answer is reused; the service's own `max-age` shortens it. */
  ttlMs: number;
  /** At most this many answers... */
  maxEntries: number;
  /** ...and this many bytes of bodies; the least recently used go first. */
  maxBytes: number;
  now?: () => number;
}

/**
 * The service's 200 answers to the proxy's one key, reused for `ttlMs`: ten clerks on one key repeat
 * each other's first letters, and a word typed further often finds the same licenses (the same provenance).
 */
export function createAnswerCache({ ttlMs, maxEntries, maxBytes, now = Date.now }: AnswerCacheOptions) {
  // A Map keeps insertion order: re-inserting on each hit makes its first entry the least recently used.
  const entries = new Map<string, { answer: CachedAnswer; storedAt: number; expiresAt: number }>();
  let bytes = 0;

  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    bytes -= entry.answer.body.length;
    entries.delete(key);
  };

  return {
    /** The answer and its age in whole seconds, or undefined when none is fresh. */
    get(key: string): { answer: CachedAnswer; ageSeconds: number } | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      const at = now();
      if (at >= entry.expiresAt) {
        drop(key);
        return undefined;
      }
      entries.delete(key);
      entries.set(key, entry);
      return { answer: entry.answer, ageSeconds: Math.floor((at - entry.storedAt) / 1000) };
    },

    /** Keeps a 200 the service lets be stored; anything else is never reused. */
    set(key: string, answer: CachedAnswer): void {
      const lifetime = lifetimeMs(answer, ttlMs);
      if (lifetime <= 0 || answer.body.length > maxBytes) return;
      drop(key);
      const at = now();
      entries.set(key, { answer, storedAt: at, expiresAt: at + lifetime });
      bytes += answer.body.length;
      for (const oldest of entries.keys()) {
        if (entries.size <= maxEntries && bytes <= maxBytes) break;
        drop(oldest);
      }
    },

    get size() {
      return { entries: entries.size, bytes };
    },
  };
}

function lifetimeMs({ status, headers }: CachedAnswer, ttlMs: number): number {
  if (status !== 200) return 0;
  const cacheControl = headers.find(([name]) => name === "cache-control")?.[1].toLowerCase() ?? "";
  if (/\b(no-store|no-cache|private)\b/.test(cacheControl)) return 0;
  const maxAge = /\bmax-age=(\d+)/.exec(cacheControl);
  return maxAge ? Math.min(ttlMs, Number(maxAge[1]) * 1000) : ttlMs;
}
