// A small router: "/" is the lobby, "/table/:id" a table. Links marked data-link navigate without reloading.
import "./style.css";
import { renderLobby } from "./lobby";
import { renderTable } from "./table";
import { clear, h, navigate } from "./dom";

type Cleanup = () => void;
let cleanup: Cleanup | null = null;

function route(): void {
  cleanup?.();
  cleanup = null;
  const app = document.getElementById("app") as HTMLElement;
  clear(app);
  const path = location.pathname.replace(/\/+$/, "") || "/";
  const table = /^\/table\/([A-Za-z0-9_-]+)$/.exec(path);
  if (path === "/") {
    cleanup = renderLobby(app);
  } else if (table) {
    cleanup = renderTable(app, table[1]);
  } else {
    app.append(
      h("section", { class: "card" }, h("h1", null, "Not found"), h("p", null, h("a", { href: "/", "data-link": true }, "Back to the lobby"))),
    );
  }
}

document.addEventListener("click", (e) => {
  const a = (e.target as Element | null)?.closest?.("a[data-link]") as HTMLAnchorElement | null;
  if (!a || e.ctrlKey || e.metaKey || e.shiftKey || a.target) return;
  e.preventDefault();
  navigate(a.getAttribute("href") ?? "/");
});
window.addEventListener("popstate", route);
route();
