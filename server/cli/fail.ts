/** Ends a command with a message a person can act on, and a non-zero exit. */
export function fail(message: string): never {
  console.error(`error: ${message}`);
  process.exit(1);
}
