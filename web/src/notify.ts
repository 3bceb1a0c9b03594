// Telling a player it is their turn (docs/web.md, "Notifications"). In the page: the tab title's count (me.ts), a
// badge on the favicon (and on an installed app's icon), and an optional sound. Out of the page: Web Push, switched
// on from the player's own profile (the service worker, web/pwa/sw.js, shows what the server pushes).
import { api } from "./api";
import { h, toast } from "./dom";
import { apiErrorText } from "./errors";
import { currentLanguage, t } from "./i18n";

const SOUND = "dicehall.sound"; // "on": a short tone when a new table waits for this player's move
let shown = 0;
let plainIcon: string | null = null;

/** The number of tables where it is this player's turn: the favicon's badge, the app icon's, a tone when it grows. */
export function showTurnCount(count: number): void {
  const grew = count > shown;
  shown = count;
  void drawFavicon(count);
  const nav = navigator as Navigator & { setAppBadge?: (n: number) => Promise<void>; clearAppBadge?: () => Promise<void> };
  if (count > 0) void nav.setAppBadge?.(count).catch(() => undefined);
  else void nav.clearAppBadge?.().catch(() => undefined);
  if (grew && soundOn()) chime();
}

async function drawFavicon(count: number): Promise<void> {
  const link = document.querySelector<HTMLLinkElement>("link[rel=icon]");
  if (!link) return;
  plainIcon ??= link.href;
  if (count === 0) {
    link.href = plainIcon;
    return;
  }
  const img = new Image();
  img.src = plainIcon;
  try {
    await img.decode();
  } catch {
    return;
  }
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 64;
  const g = canvas.getContext("2d");
  if (!g) return;
  g.drawImage(img, 0, 0, 64, 64);
  g.fillStyle = "#c0392b";
  g.beginPath();
  g.arc(44, 20, 20, 0, 2 * Math.PI);
  g.fill();
  g.fillStyle = "#fff";
  g.font = "bold 28px sans-serif";
  g.textAlign = "center";
  g.textBaseline = "middle";
  g.fillText(count > 9 ? "9+" : String(count), 44, 21);
  link.href = canvas.toDataURL("image/png");
}

export const soundOn = (): boolean => localStorage.getItem(SOUND) === "on";

function chime(): void {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 880;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.4);
    tone.onended = () => void audio.close();
  } catch {
    // no sound where the browser allows none (no user gesture yet)
  }
}

// -- Web Push ----------------------------------------------------------------------------------------------------
type PushState = "on" | "off" | "blocked" | "unsupported";
const STATE_WORDS = {
  on: "notify.state.on",
  off: "notify.state.off",
  blocked: "notify.state.blocked",
  unsupported: "notify.state.unsupported",
} as const;

function pushSupported(): boolean {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

async function currentSubscription(): Promise<PushSubscription | null> {
  const reg = await navigator.serviceWorker.getRegistration("/");
  return reg ? reg.pushManager.getSubscription() : null;
}

async function pushState(): Promise<PushState> {
  if (!pushSupported()) return "unsupported";
  if (Notification.permission === "denied") return "blocked";
  return (await currentSubscription()) ? "on" : "off";
}

function keyBytes(key: string): Uint8Array<ArrayBuffer> {
  const raw = atob(key.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (key.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

async function turnOn(): Promise<PushState> {
  if ((await Notification.requestPermission()) !== "granted") return "blocked";
  const reg = await navigator.serviceWorker.ready;
  const { key } = await api.pushKey();
  const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
  await api.subscribePush(sub.toJSON(), currentLanguage());
  return "on";
}

async function turnOff(): Promise<PushState> {
  const sub = await currentSubscription();
  if (sub) {
    await api.unsubscribePush(sub.endpoint).catch(() => undefined);
    await sub.unsubscribe();
  }
  return "off";
}

/** The profile's "Notifications" card (the player's own profile only). */
export function notificationsCard(): HTMLElement {
  const status = h("p", { class: "muted", "aria-live": "polite", "data-testid": "push-status" });
  const push = h("input", { type: "checkbox", id: "push-switch", "data-testid": "push-switch" }) as HTMLInputElement;
  const sound = h("input", { type: "checkbox", id: "sound-switch", "data-testid": "sound-switch" }) as HTMLInputElement;
  sound.checked = soundOn();
  const say = (state: PushState): void => {
    push.checked = state === "on";
    push.disabled = state === "unsupported";
    status.textContent = t(STATE_WORDS[state]);
  };
  void pushState().then(say);
  push.addEventListener("change", () => {
    push.disabled = true;
    (push.checked ? turnOn() : turnOff())
      .then(say)
      .catch((err: unknown) => {
        push.disabled = false;
        push.checked = false;
        const text = err instanceof DOMException ? t("notify.failed") : apiErrorText(err);
        status.textContent = text;
        toast(text);
      });
  });
  sound.addEventListener("change", () => {
    localStorage.setItem(SOUND, sound.checked ? "on" : "off");
    if (sound.checked) chime();
  });
  return h(
    "section",
    { class: "card notify-card", "data-testid": "notifications", "aria-labelledby": "notify-title" },
    h("h2", { id: "notify-title" }, t("notify.title")),
    h("p", null, h("label", { for: "push-switch", class: "switch" }, push, " ", t("notify.push"))),
    status,
    h("p", null, h("label", { for: "sound-switch", class: "switch" }, sound, " ", t("notify.sound"))),
  );
}
