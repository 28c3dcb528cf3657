// @ts-check
import { readdirSync } from "node:fs";
import js from "@eslint/js";
import importX, { createNodeResolver } from "eslint-plugin-import-x";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * The import direction of ../shared/STYLE.md: app -> features -> shared|api -> contract; server -> contract.
 * Every folder of src/ that is not one of the layers below is a feature (search, license, and the pages to come).
 */
const LAYERS = ["contract", "api", "shared", "app"];
const FEATURES = readdirSync("src", { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !LAYERS.includes(entry.name))
  .map((entry) => entry.name);
const inSrc = (names) => names.map((name) => `./src/${name}`);

/**
 * server/ holds three programs over shared parts: service/ (the v2 API), web/ (the app's own server) and data/
 * (an agency's file to a published snapshot) each import only the shared floors (store, db, jobs, http) and the
 * contract; the shared floors import no program; cli/ runs them all, and testing/ serves only tests.
 */
const PROGRAMS = ["service", "web", "data"];
const SHARED = ["store", "db", "jobs", "http"];
const inServer = (names) => names.map((name) => `./server/${name}`);

const zones = [
  ...PROGRAMS.map((program) => ({
    target: `./server/${program}`,
    from: inServer([...PROGRAMS.filter((other) => other !== program), "cli", "testing"]),
    message: "A program of server/ imports only the shared parts (store, db, jobs, http) and the contract.",
  })),
  {
    target: inServer(SHARED),
    from: inServer([...PROGRAMS, "cli", "testing"]),
    message: "server/'s shared parts (store, db, jobs, http) import no program: the programs import them.",
  },
  { target: "./src", from: "./server", message: "The app never imports the server: share through src/contract." },
  {
    target: "./server",
    from: "./src",
    except: ["./contract"],
    message: "The server may import src/contract and nothing else of the app.",
  },
  {
    target: "./src/contract",
    from: inSrc(["api", "shared", "app", ...FEATURES]),
    message: "src/contract imports nothing of ours: it is the contract both sides import.",
  },
  {
    target: "./src/api",
    from: inSrc(["shared", "app", ...FEATURES]),
    message: "src/api is the network boundary: it imports only the contract.",
  },
  {
    target: "./src/shared",
    from: inSrc(["app", ...FEATURES]),
    message: "src/shared serves the features: it imports only the contract and src/api.",
  },
  ...FEATURES.map((feature) => ({
    target: `./src/${feature}`,
    from: inSrc(["app", ...FEATURES.filter((other) => other !== feature)]),
    message: "A feature imports only the contract, src/api and src/shared: never src/app or another feature.",
  })),
];

export default tseslint.config(
  {
    ignores: ["dist/", "dist-server/", "node_modules/", "test-results/", "playwright-report/", "data/", "bench/.data/"],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    settings: { "import-x/resolver-next": [createNodeResolver({ extensions: [".ts", ".tsx", ".js"] })] },
    plugins: { "import-x": importX },
    rules: {
      "import-x/no-restricted-paths": ["error", { zones }],
      // React Router's loaders throw its `data()` and `redirect()` answers: that is how they end a navigation.
      "@typescript-eslint/only-throw-error": [
        "error",
        {
          allow: [
            { from: "lib", name: "Response" },
            { from: "package", package: "react-router", name: "DataWithResponseInit" },
          ],
        },
      ],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      // `_` marks a parameter a signature needs but the body does not.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["src/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
    ...reactHooks.configs.flat["recommended-latest"],
  },
  { files: ["src/**/*.tsx"], ...jsxA11y.flatConfigs.recommended },
  {
    // A test may reach further than the code it tests (a server test seeds through the store, an app
    // test renders the router).
    files: ["**/*.test.{ts,tsx}", "e2e/**", "bench/**"],
    rules: { "import-x/no-restricted-paths": "off" },
  },
  {
    files: ["**/*.test.{ts,tsx}"],
    rules: {
      // Vitest types its asymmetric matchers (expect.any, expect.stringContaining) as any, by design.
      "@typescript-eslint/no-unsafe-assignment": "off",
      // A fetch stub is async to stand in for fetch, whether or not its body awaits.
      "@typescript-eslint/require-await": "off",
    },
  },
  { files: ["**/*.{js,mjs}"], extends: [tseslint.configs.disableTypeChecked] },
);
