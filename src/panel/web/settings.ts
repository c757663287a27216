/** The control panel's settings page (readwrite panels only): the API's drop rate and delay, configuration reload. */
import { page, type Status } from "./state.js";
import { debugRpc, h, view } from "./view.js";

export async function settings(): Promise<Node[]> {
  page.status ??= await view<Status>("status");
  if (page.status?.setting !== "readwrite")
    return [
      h("h1", {}, "Settings"),
      h(
        "p",
        {},
        "This panel is read-only (ControlPanelSetting = readonly). Set it to readwrite to change the knobs here.",
      ),
    ];
  const drop = await debugRpc("drop-rate", undefined);
  const delay = await debugRpc("delay", undefined);
  const out = h("p", { id: "settings-result", role: "status" });
  const knob = (
    id: string,
    label: string,
    value: number,
    unit: string,
    set: (v: number) => Promise<unknown>,
  ): HTMLElement => {
    const input = h("input", { id, type: "number", min: "0", value: String(value) });
    const button = h("button", { type: "button", id: `${id}-set` }, "Set");
    button.onclick = async () => {
      try {
        const r = await set(Number(input.value));
        out.textContent = `${label}: ${JSON.stringify(r)}`;
        out.className = "ok";
      } catch (e) {
        out.textContent = e instanceof Error ? e.message : String(e);
        out.className = "bad";
      }
    };
    return h("div", { class: "knob" }, h("label", { for: id }, `${label} (${unit})`), input, button);
  };
  const reload = h("button", { type: "button", id: "reload-configuration" }, "Reload the configuration file");
  reload.onclick = async () => {
    try {
      await debugRpc("reload-configuration", undefined);
      out.textContent = "configuration reloaded";
      out.className = "ok";
    } catch (e) {
      out.textContent = e instanceof Error ? e.message : String(e);
      out.className = "bad";
    }
  };
  return [
    h("h1", {}, "Settings"),
    h("p", { class: "muted" }, "Network-testing knobs of the API's message intake (ControlPanelSetting = readwrite)."),
    knob("drop-rate", "Drop rate", drop.DropRate, "per 1000 submitted messages", (v) =>
      debugRpc("set-drop-rate", { DropRate: v }),
    ),
    knob("delay", "Delay", delay.Delay, "ms per submitted message", (v) => debugRpc("set-delay", { Delay: v })),
    h("div", { class: "knob" }, reload),
    out,
  ];
}
