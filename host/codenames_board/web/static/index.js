/* The public board (/): anyone on the table's network, no key ever. ?tv=1 or the full screen
   button gives the TV layout (grid left, large type readable from across the room). */

import {LiveSocket, el, keepAwake, loadTexts, t} from "./app.js";
import {BoardView, followLayout} from "./board.js";

async function main() {
  await loadTexts();
  document.title = t("web.title");
  const tv = new URLSearchParams(location.search).get("tv") === "1";
  const view = new BoardView({links: [["/history", "web.history_link"]]});
  const button = el("button", "tool fullscreen");
  button.type = "button";
  view.top.tools.append(button);
  // Boolean(): browsers without the Fullscreen API (iPhones) leave fullscreenElement undefined.
  const full = () => Boolean(document.fullscreenElement);
  const layout = followLayout(() => tv || full());
  const label = () => {
    button.textContent = t(full() ? "web.fullscreen_exit" : "web.fullscreen");
    document.body.classList.toggle("tv", tv || full());
    layout();
  };
  button.addEventListener("click", () => {
    if (full()) document.exitFullscreen().catch(() => {});
    else document.documentElement.requestFullscreen().catch(() => {});
  });
  document.addEventListener("fullscreenchange", label);
  button.classList.toggle("hidden", document.fullscreenEnabled !== true);
  label();
  if (tv) keepAwake();
  const socket = new LiveSocket("/ws", {
    message: (message) => {
      if (message.type === "state") view.render(message);
    },
    online: (online) => view.top.online(online),
  });
  socket.start();
}

main();
