import pkg from "../../package.json" with { type: "json" };

/** The app's version, as recorded with every check: which rule judged what a clerk saw. */
export const APP_VERSION = `license-lookup ${pkg.version}`;
