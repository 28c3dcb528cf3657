/** Why a download failed, one class per kind, each naming the URL in a sentence a person understands. */
export class DownloadError extends Error {
  /** What came, kept beside the download's target when the client was asked to keep a refused body. */
  rejected?: { file: string; sha256: string; bytes: number };

  constructor(
    readonly url: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

export class DownloadTimeout extends DownloadError {
  constructor(
    url: string,
    readonly limit: "idle" | "total",
    readonly limitMs: number,
  ) {
    super(
      url,
      limit === "idle"
        ? `${url} sent nothing for ${seconds(limitMs)}: the server did not answer, or stopped sending mid-way.`
        : `${url} did not finish within ${seconds(limitMs)}, the time allowed for the whole download.`,
    );
  }
}

export class HttpStatusError extends DownloadError {
  constructor(
    url: string,
    readonly status: number,
    detail = "",
    /** What the server's Retry-After asked for, if it said. */
    readonly retryAfterMs?: number,
  ) {
    super(url, `${url} answered ${status}${detail ? `: ${detail}` : ""}.`);
  }
}

export class HtmlInsteadOfData extends DownloadError {
  constructor(url: string) {
    super(
      url,
      `${url} sent a web page where a data file was expected (an error, sign-in or challenge page, or a moved file): nothing was loaded.`,
    );
  }
}

export class TruncatedDownload extends DownloadError {
  constructor(
    url: string,
    readonly received: number,
    readonly expected: number | undefined,
    options?: ErrorOptions,
  ) {
    super(
      url,
      expected === undefined
        ? `${url} broke off after ${received} bytes: the file is incomplete and was not kept.`
        : `${url} sent ${received} of the ${expected} bytes it announced: the file is incomplete and was not kept.`,
      options,
    );
  }
}

export class NetworkError extends DownloadError {
  constructor(url: string, cause: unknown) {
    super(url, `${url} could not be reached (${describe(cause)}).`, { cause });
  }
}

function seconds(ms: number) {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

/** undici hides the socket's reason (ECONNREFUSED, other side closed) in `cause`. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause : undefined;
  const code = cause && "code" in cause && typeof cause.code === "string" ? cause.code : undefined;
  return [error.message, cause?.message, code].filter(Boolean).join(": ");
}

/** A download that came whole but is not the whole data set: fewer rows than the API reports, a broken zip. */
export class IncompleteDownload extends DownloadError {}

/** An API that answered 200 with an error in its body, as ArcGIS does. */
export class ApiAnswerError extends DownloadError {}
