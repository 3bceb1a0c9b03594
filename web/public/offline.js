// The offline page (sw.js serves it when a page cannot be loaded): in the reader's language, with "Your games" as
// the service worker last saw them; it opens the game again by itself when the connection is back.
"use strict";
(() => {
  const WORDS = {
    en: {
      title: "You are offline",
      why: "dicehall needs a connection to play: every move and every roll is kept on the server.",
      back: "This page opens the game by itself as soon as you are back online.",
      retry: "Try again",
      games: "Your games, as last seen",
      turn: "Your turn",
      waiting: "Waiting for the others",
      finished: "Finished",
      games_names: { thousand: "Dice 1000", clever: "Ganz schön clever", wurf: "Der große Wurf" },
      page: "dicehall — offline",
    },
    ru: {
      title: "Нет соединения",
      why: "Для игры dicehall нужен интернет: каждый ход и каждый бросок хранятся на сервере.",
      back: "Страница сама откроет игру, как только соединение вернётся.",
      retry: "Попробовать снова",
      games: "Ваши игры (как в последний раз)",
      turn: "Ваш ход",
      waiting: "Ждём других игроков",
      finished: "Окончена",
      games_names: { thousand: "Тысяча", clever: "Ganz schön clever", wurf: "Der große Wurf" },
      page: "dicehall — нет соединения",
    },
    uk: {
      title: "Немає з’єднання",
      why: "Для гри dicehall потрібен інтернет: кожен хід і кожен кидок зберігаються на сервері.",
      back: "Сторінка сама відкриє гру, щойно з’єднання повернеться.",
      retry: "Спробувати ще раз",
      games: "Ваші ігри (як востаннє)",
      turn: "Ваш хід",
      waiting: "Чекаємо на інших гравців",
      finished: "Завершена",
      games_names: { thousand: "Тисяча", clever: "Ganz schön clever", wurf: "Der große Wurf" },
      page: "dicehall — немає з’єднання",
    },
    pl: {
      title: "Jesteś offline",
      why: "Do gry dicehall potrzebne jest połączenie: każdy ruch i każdy rzut są przechowywane na serwerze.",
      back: "Ta strona sama otworzy grę, gdy tylko połączenie wróci.",
      retry: "Spróbuj ponownie",
      games: "Twoje gry (ostatnio widziane)",
      turn: "Twój ruch",
      waiting: "Czekamy na pozostałych",
      finished: "Zakończona",
      games_names: { thousand: "Tysiąc", clever: "Ganz schön clever", wurf: "Der große Wurf" },
      page: "dicehall — offline",
    },
  };

  function language() {
    let chosen = null;
    try {
      chosen = localStorage.getItem("dicehall.lang");
    } catch {
      chosen = null;
    }
    const wanted = [chosen, ...(navigator.languages || [navigator.language])];
    for (const tag of wanted) {
      const base = String(tag || "").toLowerCase().split("-")[0];
      if (base in WORDS) return base;
    }
    return "en";
  }

  const lang = language();
  const w = WORDS[lang];
  document.documentElement.lang = lang;
  document.title = w.page;
  for (const id of ["title", "why", "back", "retry"]) document.getElementById(id).textContent = w[id];
  document.getElementById("games-title").textContent = w.games;

  function reopen() {
    location.reload();
  }
  document.getElementById("retry").addEventListener("click", reopen);
  window.addEventListener("online", reopen);
  // The device may be online while the server is out of reach: ask it now and then, and open the game when it answers.
  setInterval(() => {
    fetch("/api/health", { cache: "no-store" })
      .then((r) => (r.ok ? reopen() : null))
      .catch(() => {});
  }, 15000);

  function item(game, status) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = `/table/${encodeURIComponent(game.table_id)}`;
    a.textContent = w.games_names[game.game] || game.game;
    li.append(a, ` — ${status}`);
    if (status === w.turn) li.className = "turn";
    return li;
  }

  if (!("caches" in window)) return;
  caches
    .open("dicehall-my-games")
    .then((cache) => cache.match("/api/me/games"))
    .then((response) => (response ? response.json() : null))
    .then((mine) => {
      if (!mine) return;
      const list = document.getElementById("games");
      const rows = [
        ...(mine.your_turn || []).map((g) => item(g, w.turn)),
        ...(mine.waiting || []).map((g) => item(g, w.waiting)),
        ...(mine.finished || []).slice(0, 5).map((g) => item(g, w.finished)),
      ];
      if (!rows.length) return;
      list.append(...rows);
      document.getElementById("games-card").hidden = false;
    })
    .catch(() => {});
})();
