import { basename, isAbsolute, relative, resolve } from "node:path";

// Longer names are cut: most file systems take 255 bytes, and a UTF-8 character takes up to four.
const MAX_NAME_CHARS = 120;

/**
 * The name a download from `url` is kept under: its last path segment, decoded, then made a plain name of one
 * folder (safeName). An agency's link is not trusted: `%2F..%2F` decodes to a way out of the folder.
 */
export function nameFromUrl(url: string): string {
  const segment = new URL(url).pathname.split("/").filter(Boolean).at(-1) ?? "";
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // A stray % (not an escape): the segment as it is, made safe below.
  }
  return safeName(decoded);
}

/**
 * `name` as a file name inside one folder: control characters gone, only what follows its last / or \, no leading
 * dots (no `..`, no hidden file), characters Windows refuses replaced; "download" when nothing is left.
 */
export function safeName(name: string): string {
  const printable = [...name].filter((c) => !isControl(c.codePointAt(0)!)).join("");
  const last = basename(printable.replaceAll("\\", "/"));
  const plain = last
    .replace(/[<>:"|?*]/g, "_")
    .replace(/^[.\s]+/, "")
    .trim()
    .slice(0, MAX_NAME_CHARS);
  return plain || "download";
}

/** C0 and C1 control characters, DEL included: a newline in a name breaks every log line that shows it. */
function isControl(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
}

/** `dir`/`name`, checked to be inside `dir`: anything else is an error, never a file written elsewhere. */
export function pathInside(dir: string, name: string): string {
  const folder = resolve(dir);
  const path = resolve(folder, name);
  const within = relative(folder, path);
  if (!within || within.startsWith("..") || isAbsolute(within) || within !== basename(path)) {
    throw new Error(`"${name}" is not a plain file name: a download is only ever written inside ${folder}`);
  }
  return path;
}
