import { expect, it } from "vitest";
import shellPage from "../../index.html?raw";
import { renderRoutes } from "../shared/render-routes.tsx";
import { Layout } from "./layout.tsx";
import { PageLoading } from "./page-loading.tsx";

/** An element as a person meets it: tags, classes, links, labels and text; not React's or the router's own data-*. */
function shape(node: Element): string {
  const attributes = ["id", "class", "href", "role", "tabindex", "aria-label", "aria-hidden"]
    .filter((name) => node.hasAttribute(name))
    .map((name) => ` ${name}="${node.getAttribute(name)}"`)
    .join("");
  const children = [...node.childNodes]
    .map((child) =>
      child.nodeType === child.ELEMENT_NODE ? shape(child as Element) : (child.textContent ?? "").trim(),
    )
    .filter(Boolean)
    .join("");
  return `<${node.tagName.toLowerCase()}${attributes}>${children}</${node.tagName.toLowerCase()}>`;
}

it("paints, before the JavaScript arrives, the same frame the app then draws: nothing moves when it takes over", () => {
  const shell = new DOMParser().parseFromString(shellPage, "text/html").getElementById("root")!;
  shell.querySelector("noscript")?.remove();
  renderRoutes([{ element: <Layout />, children: [{ path: "*", element: <PageLoading /> }] }], "/license/ny/1");
  const app = document.body;

  for (const part of ["a.skip-link", "header.site-header", "footer.site-footer", "main#main"]) {
    const painted = shell.querySelector(part);
    expect(painted, part).not.toBeNull();
    expect(shape(painted!), part).toBe(shape(app.querySelector(part)!));
  }
  expect(shell.querySelector("main#main")?.textContent?.trim()).toBe("Loading…");
});
