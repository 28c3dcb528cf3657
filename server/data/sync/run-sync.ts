import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { findSourceAdapter } from "../sources/adapters.ts";
import { keepInArchive } from "../import/file-archive.ts";
import { importSource } from "../import/import-source.ts";
import { ImportRefusedError } from "../import/shrink-guard.ts";
import { SourceFileError } from "../sources/source-adapter.ts";
import { createFeedChecksRepo, type FeedOutcome } from "../../store/feed-checks-repo.ts";
import type { Db } from "../../store/open-database.ts";
import { createRefusalsRepo } from "../../store/refusals-repo.ts";
import {
  DownloadError,
  HtmlInsteadOfData,
  HttpStatusError,
  IncompleteDownload,
  TruncatedDownload,
} from "./download-errors.ts";
import type { FeedDefinition, FetchContext } from "./feed-definition.ts";
import { FEEDS } from "./feeds.ts";
import { fetchFeed } from "./fetch-feed.ts";

export interface SyncOptions {
  /** Where every fetched file is kept: `<archive>/<adapter>/<sha256><ext>`, as `npm run import` keeps its files. */
  archive: string;
  /** Replaces the scheme and host of every agency URL. */
  origin?: string;
  /** Default: every feed. */
  feeds?: readonly FeedDefinition[];
  /** Only these states' feeds (lower case). */
  states?: readonly string[];
  /** The HTTP client's limits and User-Agent. */
  client?: FetchContext["client"];
  /** The shrink guard's limit, as `npm run import -- --max-shrink`. */
  maxShrink?: number;
  now?: () => Date;
  /** Hears each feed's outcome as it is known. */
  onFeed?: (report: FeedReport) => void;
  /** The most a zip member may inflate to; a member past it is refused. Default DEFAULT_MAX_MEMBER_BYTES. */
  maxMemberBytes?: number;
  /** Aborted: no further feed is begun (the lock the sync runs under was lost). */
  signal?: AbortSignal;
}

export interface FeedReport {
  feed: string;
  state: string;
  outcome: FeedOutcome;
  detail: string;
}

/** The feeds a sync asks, filtered by state; an unknown state is an error that names the known ones. */
export function feedsFor(states: readonly string[] | undefined, feeds: readonly FeedDefinition[] = FEEDS) {
  const stateOf = (feed: FeedDefinition) => findSourceAdapter(feed.adapter)!.state;
  if (!states) return [...feeds];
  const known = [...new Set(feeds.map(stateOf))];
  const unknown = states.filter((s) => !known.includes(s));
  if (unknown.length) {
    throw new Error(
      `no feed is known for ${unknown.map((s) => s.toUpperCase()).join(", ")}: a sync fetches ${known.map((s) => s.toUpperCase()).join(", ")}`,
    );
  }
  return feeds.filter((feed) => states.includes(stateOf(feed)));
}

/**
 * One sync: for each feed, in turn, a freshness request; only when the agency published something new the whole
 * download, kept in the archive and imported through the import's pipeline (its shrink guard included). Each feed's
 * check is recorded; a refused file is recorded in refusals with its reason and its archived copy. The old records
 * stay served on every fault: nothing but a whole, accepted import changes them.
 */
export async function syncFeeds(db: Db, options: SyncOptions): Promise<FeedReport[]> {
  const checks = createFeedChecksRepo(db);
  const refusals = createRefusalsRepo(db);
  const now = options.now ?? (() => new Date());
  const reports: FeedReport[] = [];
  for (const definition of feedsFor(options.states, options.feeds)) {
    if (options.signal?.aborted) break;
    const adapter = findSourceAdapter(definition.adapter);
    if (!adapter) throw new Error(`${definition.feed}: no adapter ${definition.adapter}`);
    const url = agencyUrl(definition);
    const dir = await mkdtemp(join(tmpdir(), "license-sync-"));
    const report = (outcome: FeedOutcome, detail: string, validators?: Record<string, string>) => {
      checks.record(
        { feed: definition.feed, state: adapter.state, adapter: adapter.name, url, outcome, detail, validators },
        now(),
      );
      const done = { feed: definition.feed, state: adapter.state, outcome, detail };
      reports.push(done);
      options.onFeed?.(done);
    };
    const refuse = (file: string, sha256: string, reason: string) =>
      refusals.record({ state: adapter.state, adapter: adapter.name, file, sha256, reason }, now());
    const archiveDir = join(options.archive, adapter.name);
    try {
      const previous = checks.get(definition.feed)?.validators ?? {};
      const fetched = await fetchFeed(definition, {
        origin: options.origin,
        dir,
        previous,
        client: options.client ?? {},
        maxMemberBytes: options.maxMemberBytes,
      });
      if (fetched.kind === "unchanged") {
        report("unchanged", fetched.detail, fetched.validators);
        continue;
      }
      const archived = await keepInArchive(fetched.file, fetched.sha256, archiveDir);
      let imported;
      try {
        imported = await importSource(db, adapter, [fetched.importFile], {
          archive: options.archive,
          maxShrink: options.maxShrink,
          asOf: fetched.asOf,
          now,
          shownAs: basename,
        });
      } catch (error) {
        if (!(error instanceof SourceFileError)) throw error;
        // The import records its own refusals (a shrink, no usable row); an unreadable file or an unknown layout is
        // refused here, naming the copy kept.
        const reason = error.message.replaceAll(`${dir}/`, "");
        if (!(error instanceof ImportRefusedError)) refuse(basename(fetched.file), fetched.sha256, reason);
        // /v2/states shows this sentence: the archive's own name for the copy, not the server's folders.
        const kept = `${adapter.name}/${basename(archived)}`;
        report("refused", `${fetched.detail}, but the file was refused (kept in the archive as ${kept}): ${reason}`);
        continue;
      }
      const file = imported.files[0]!;
      if (file.alreadyLoadedAt !== null) {
        report("unchanged", `the file fetched is the one loaded ${file.alreadyLoadedAt}`, fetched.validators);
        continue;
      }
      const n = (x: number) => x.toLocaleString("en-US");
      const dropped = imported.dropped.count ? `; ${n(imported.dropped.count)} no longer listed` : "";
      report(
        "changed",
        `${fetched.detail}: ${basename(fetched.importFile)} loaded, ` +
          `${n(imported.records)} licenses served as of ${file.asOf ?? "an unknown date"}${dropped}`,
        fetched.validators,
      );
    } catch (error) {
      if (refusedDownload(error)) {
        let sha256 = "";
        if (error.rejected) {
          await keepInArchive(error.rejected.file, error.rejected.sha256, archiveDir);
          sha256 = error.rejected.sha256;
        }
        refuse(basename(new URL(error.url).pathname) || error.url, sha256, error.message);
        report("refused", error.message);
      } else if (error instanceof HttpStatusError && error.status === 403) {
        // fetch-sources.md: Socrata answers 403 for a retired data set; mass.gov's and njoag.gov's firewalls turn some clients away.
        report(
          "failed",
          `${error.message} The agency turned the request away: the data set may be retired or moved ` +
            `(check the agency's catalog), or its firewall refuses this client (see SYNC_USER_AGENT).`,
        );
      } else if (error instanceof DownloadError) {
        report("failed", error.message);
      } else {
        report("failed", `the sync stopped on an unexpected error: ${(error as Error).message}`);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return reports;
}

/** A download that came but is not the data: a web page, a cut body, fewer rows than the agency reports. */
function refusedDownload(error: unknown): error is DownloadError {
  return (
    error instanceof HtmlInsteadOfData || error instanceof TruncatedDownload || error instanceof IncompleteDownload
  );
}

/** The URL a feed is known by, as the agency publishes it. */
export function agencyUrl(definition: FeedDefinition): string {
  const source = definition.source;
  switch (source.kind) {
    case "socrata":
      return `${source.site}/resource/${source.dataset}`;
    case "arcgis":
      return source.layer;
    case "file":
      return source.url;
    case "linked-file":
      return source.page;
  }
}

/** One line per feed, in plain words: what the check found and what became of the state's records. */
export function formatFeedReport(report: FeedReport): string {
  const said: Record<FeedOutcome, string> = {
    unchanged: "unchanged",
    changed: "updated",
    refused: "refused (the old records stay served)",
    failed: "not checked (the old records stay served)",
  };
  return `${report.state.toUpperCase()} ${report.feed}: ${said[report.outcome]}: ${report.detail}`;
}
