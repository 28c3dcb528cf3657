// `npm install`'s last step (package.json "postinstall"): keeps the better-sqlite3 binary this machine just compiled
// where prebuild-install looks before it compiles, so that the next install of the same version on this machine
// (a fresh clone, `npm ci` in CI) unpacks it in a second instead of compiling SQLite for about two minutes. The
// file is the one prebuild-install itself would have downloaded and cached, named as it names it; with no internet
// but the npm registry, its download from GitHub never comes. Best effort: it never fails an install.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

try {
  const require = createRequire(import.meta.url);
  const dir = dirname(require.resolve("better-sqlite3/package.json"));
  const binary = join(dir, "build", "Release", "better_sqlite3.node");
  const fromSqlite = createRequire(join(dir, "package.json"));
  const pkg = fromSqlite("./package.json");
  const util = fromSqlite("prebuild-install/util");
  const opts = { ...fromSqlite("prebuild-install/rc")(pkg), pkg };
  const cached = util.cachedPrebuild(util.getDownloadUrl(opts));
  if (existsSync(binary) && !existsSync(cached)) {
    mkdirSync(dirname(cached), { recursive: true });
    const partial = `${cached}.${process.pid}.tmp`;
    execFileSync("tar", ["-czf", partial, "-C", dir, "build/Release/better_sqlite3.node"]);
    renameSync(partial, cached);
  }
} catch {
  // Nothing kept: the next install compiles, as it would have anyway.
}
