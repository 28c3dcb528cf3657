import { readFile, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { unzipSync } from "fflate";
import type { FeedValidators } from "../../store/feed-checks-repo.ts";
import { IncompleteDownload } from "./download-errors.ts";
import type { Fetched, FetchContext, FileSource, LinkedFileSource } from "./feed-definition.ts";
import { fetchText, fetchTo } from "./fetch-feed.ts";

/**
 * A file at a fixed URL (fetch-sources.md: CA's zip, MA's list): its dating page first where it has one, then a
 * conditional GET with the validators it last gave (a 304 is unchanged), then the SHA-256 of what came.
 */
export async function fetchFile(source: FileSource, context: FetchContext): Promise<Fetched> {
  const previous = context.previous;
  let dated: string | undefined;
  if (source.datedBy) {
    const page = await fetchText(source.datedBy.url, context, true);
    dated = page.match(source.datedBy.date)?.[1]?.trim();
    if (dated !== undefined && dated === previous.dated) {
      return { kind: "unchanged", detail: `its page still says it was last updated ${dated}`, validators: previous };
    }
  }
  return fetchWhole(source.url, source.name ?? fileName(source.url), context, {
    member: source.member,
    known: dated === undefined ? {} : { dated },
    why: dated === undefined ? undefined : `its page says it was updated ${dated}`,
  });
}

/**
 * A file that a new name stands for each edition of (NJ's monthly report, fetch-sources.md section 5): the index
 * page's newest matching link, fetched when it is not the one fetched last.
 */
export async function fetchLinkedFile(source: LinkedFileSource, context: FetchContext): Promise<Fetched> {
  const page = await fetchText(source.page, context, true);
  const links = [...page.matchAll(new RegExp(source.link.source, source.link.flags.replace("g", "") + "g"))]
    .map((match) => ({ url: new URL(match[1] ?? match[0], source.page).href, edition: source.edition(match) }))
    .sort((a, b) => a.edition.localeCompare(b.edition));
  const newest = links.at(-1);
  if (!newest) {
    throw new IncompleteDownload(
      source.page,
      `${source.page} links no file like ${source.link.source}: the page changed, or an error or challenge page came instead.`,
    );
  }
  if (newest.url === context.previous.fileUrl) {
    return {
      kind: "unchanged",
      detail: `the newest file its page links is still ${fileName(newest.url)}`,
      validators: context.previous,
    };
  }
  return fetchWhole(newest.url, fileName(newest.url), context, {
    known: { fileUrl: newest.url },
    why: `its page links a new file, ${fileName(newest.url)}`,
  });
}

async function fetchWhole(
  url: string,
  name: string,
  context: FetchContext,
  options: { member?: string; known: FeedValidators; why?: string },
): Promise<Fetched> {
  const previous = context.previous;
  // A new edition's URL has no validators of its own yet.
  const conditional = !("fileUrl" in options.known);
  const got = await fetchTo(url, name, context, {
    validators: conditional ? { etag: previous.etag, lastModified: previous.lastModified } : {},
  });
  if (got.kind === "not-modified") {
    return {
      kind: "unchanged",
      detail: "the agency's server says it has not changed since the last check (304)",
      validators: { ...previous, ...options.known },
    };
  }
  const validators: FeedValidators = {
    ...options.known,
    sha256: got.sha256,
    ...(got.etag ? { etag: got.etag } : {}),
    ...(got.lastModified ? { lastModified: got.lastModified } : {}),
  };
  if (got.sha256 === previous.sha256) {
    return { kind: "unchanged", detail: "the file is byte for byte the one of the last check", validators };
  }
  let importFile = got.file;
  if (options.member) importFile = await unzipMember(got.file, options.member, url, context.dir);
  return {
    kind: "fetched",
    file: got.file,
    sha256: got.sha256,
    importFile,
    url,
    validators,
    detail:
      options.why ??
      (got.lastModified ? `the file was modified ${got.lastModified}` : "the file differs from the last check"),
  };
}

/** The zip's member, written beside it: a zip that does not open whole, or lacks it, is refused. */
async function unzipMember(zip: string, member: string, url: string, dir: string): Promise<string> {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(await readFile(zip), { filter: (file) => basename(file.name) === member });
  } catch (error) {
    throw new IncompleteDownload(url, `${url} is not a whole zip file (${(error as Error).message}).`);
  }
  const bytes = Object.values(files)[0];
  if (!bytes) throw new IncompleteDownload(url, `${url} holds no ${member}.`);
  const path = join(dir, member);
  await writeFile(path, bytes);
  return path;
}

function fileName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.split("/").filter(Boolean).at(-1) ?? "download");
}
