import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, totalmem } from "node:os";

const RESULTS = new URL("./RESULTS.md", import.meta.url);
const TITLE =
  "# Benchmark results\n\nFigures of the last run of each benchmark; each section is replaced by its own command.\n";

/** Replaces the `## heading` section of bench/RESULTS.md (or appends it), keeping the others. */
export function writeResultsSection(heading: string, body: string): void {
  const text = existsSync(RESULTS) ? readFileSync(RESULTS, "utf8") : TITLE;
  const section = `## ${heading}\n\n${body.trim()}\n`;
  const start = text.indexOf(`\n## ${heading}\n`);
  if (start === -1) {
    writeFileSync(RESULTS, `${text.trimEnd()}\n\n${section}`);
    return;
  }
  const end = text.indexOf("\n## ", start + 1);
  writeFileSync(RESULTS, `${text.slice(0, start + 1)}${section}${end === -1 ? "" : text.slice(end)}`);
}

/** The date, machine and exact command a run's figures belong to; take it when the run starts. */
export function runContext(command: string): string {
  const gb = (totalmem() / 2 ** 30).toFixed(0);
  return [
    `- Date: ${new Date().toISOString().replace("T", " ").slice(0, 16)} UTC`,
    `- Machine: ${availableParallelism()} cores (nproc), ${cpus()[0]?.model ?? "unknown CPU"}, ${gb} GB RAM, Node ${process.version}`,
    `- Command: \`${command}\``,
    // Other work on the machine moves every figure; this says how busy it was when the run began.
    `- Load average at the start: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(", ")} (1, 5, 15 min)`,
  ].join("\n");
}

/** The command line as typed: `npm run bench -- --rebuild`. */
export function npmCommand(script: string): string {
  const args = process.argv.slice(2);
  return `npm run ${script}${args.length ? ` -- ${args.join(" ")}` : ""}`;
}
