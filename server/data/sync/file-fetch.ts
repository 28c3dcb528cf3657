import type { FeedValidators } from "../../store/feed-checks-repo.ts";
import { DownloadError, IncompleteDownload } from "./download-errors.ts";
import { nameFromUrl, pathInside, safeName } from "./download-name.ts";
import type { Fetched, FetchContext, FileSource, LinkedFileSource } from "./feed-definition.ts";
import { fetchText, fetchTo } from "./fetch-feed.ts";
import { DEFAULT_MAX_MEMBER_BYTES, extractMember } from "./zip-member.ts";

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
  return fetchWhole(source.url, source.name ?? nameFromUrl(source.url), context, {
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
      detail: `the newest file its page links is still ${nameFromUrl(newest.url)}`,
      validators: context.previous,
    };
  }
  return fetchWhole(newest.url, nameFromUrl(newest.url), context, {
    known: { fileUrl: newest.url },
    why: `its page links a new file, ${nameFromUrl(newest.url)}`,
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
  if (options.member) {
    importFile = pathInside(context.dir, safeName(options.member));
    try {
      await extractMember(got.file, options.member, importFile, {
        url,
        maxBytes: context.maxMemberBytes ?? DEFAULT_MAX_MEMBER_BYTES,
      });
    } catch (error) {
      // The zip as it came is kept for the refusal to name.
      if (error instanceof DownloadError) error.rejected = { file: got.file, sha256: got.sha256, bytes: got.bytes };
      throw error;
    }
  }
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
