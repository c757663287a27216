/** The control panel's overview page (docs/panel.md §Overview): heights, the open block, rates, queues, health. */
import { CHART_WINDOW_SECONDS, RateChart } from "./chart.js";
import { scheduledPart } from "./scheduled.js";
import { type BlockEvent, type PageRegistry, page, plural, type Status, transactionsText } from "./state.js";
import { bytes, h, hashLink, link, table, time, view } from "./view.js";

export async function overview(registry: PageRegistry): Promise<Node[]> {
  page.status = await view<Status>("status");
  const s = page.status;
  const heightEl = h("span", { id: "dbheight", class: "big" }, s.heights.directoryBlockHeight);
  const leaderEl = h("span", { class: "big" }, s.heights.leaderHeight);
  const ebEl = h("span", { class: "big" }, s.heights.entryBlockHeight);
  const entryHEl = h("span", { class: "big" }, s.heights.entryHeight);
  const bar = h("div", { class: "bar-fill" });
  const minuteText = h("span", { id: "minute" }, `minute ${s.minute + 1} of 10`);
  const health = h(
    "span",
    { id: "health", class: s.booted && !s.stalled ? "ok" : "bad" },
    s.booted && !s.stalled ? "healthy" : "not healthy",
  );
  const queue = h("span", {}, s.holdingqueue);
  const plEntries = h("span", {}, s.processlist.entries);
  const plTxs = h("span", {}, s.processlist.transactions);
  const plEntriesWord = h("span", {}, plural(s.processlist.entries, " entry", " entries"));
  const plTxsWord = h(
    "span",
    { id: "pl-txs-word" },
    plural(s.processlist.transactions, " transaction", " transactions"),
  );
  const entriesChart = h("div", { class: "chart", id: "entries-chart" });
  const txChart = h("div", { class: "chart", id: "tx-chart" });
  const latest = h("tbody", { id: "latest" });
  const servers = table(
    ["Server identity chain", "Role", "Online"],
    [
      ...s.federatedservers.map((f) => [hashLink("chain", f.chainid), "federated", f.online ? "online" : "offline"]),
      ...s.auditservers.map((f) => [hashLink("chain", f.chainid), "audit", f.online ? "online" : "offline"]),
    ],
  );

  const blockMs = s.blocktimeseconds * 1000;
  let blockStart = s.blockstartms;
  let minute = s.minute;
  const skew = Date.now() - s.nowms;
  const tick = (): void => {
    const inBlock = Math.min(1, Math.max(0, (Date.now() - skew - blockStart) / blockMs));
    bar.style.width = `${(100 * Math.max(inBlock, minute / 10)).toFixed(1)}%`;
  };
  tick();
  registry.timers.push(window.setInterval(tick, 200));

  /** live blocks that arrive before the history is loaded, added after it */
  const pending: BlockEvent[] = [];
  let loaded = false;
  const charts = {
    entries: new RateChart(entriesChart, "entries/s", "#3b82f6"),
    txs: new RateChart(txChart, "transactions/s", "#10b981"),
  };
  // A point per block time stamp (minute resolution): a minute's blocks add up, over at least a minute.
  const span = Math.max(60, s.blocktimeseconds);
  const addBlock = (b: BlockEvent): void => {
    charts.entries.add(b.timestamp, b.entries / span);
    // the coinbase is in every block; count the rest
    charts.txs.add(b.timestamp, Math.max(0, b.transactions - 1) / span);
    latest.prepend(
      h(
        "tr",
        {},
        h("td", {}, link(`dblock/${b.height}`, String(b.height))),
        h("td", {}, hashLink("dblock", b.keymr)),
        h("td", {}, time(b.timestamp)),
        h("td", {}, b.entries),
        h("td", {}, transactionsText(b.transactions)),
      ),
    );
    while (latest.children.length > 10) latest.lastElementChild?.remove();
  };

  registry.listeners.push((e) => {
    if (e.event === "block") {
      const b = e as unknown as BlockEvent;
      heightEl.textContent = String(b.height);
      ebEl.textContent = String(b.height);
      entryHEl.textContent = String(b.height);
      leaderEl.textContent = String(b.height + 1);
      if (loaded) addBlock(b);
    } else if (e.event === "minute") {
      minute = Number(e.minute) % 10;
      if (minute === 0) blockStart = Date.now() - skew;
      minuteText.textContent = `minute ${minute + 1} of 10`;
      tick();
    } else if (e.event === "health") {
      health.textContent = e.healthy
        ? "healthy"
        : `not healthy${e.writesrefused ? `: writes refused (${String(e.writesrefused)})` : ""}${e.stalled ? ": stalled" : ""}`;
      health.className = e.healthy ? "ok" : "bad";
    }
  });
  // queues and storage: polled (they change with every message)
  registry.timers.push(
    window.setInterval(async () => {
      try {
        const n = await view<Status>("status");
        queue.textContent = String(n.holdingqueue);
        plEntries.textContent = String(n.processlist.entries);
        plTxs.textContent = String(n.processlist.transactions);
        plEntriesWord.textContent = plural(n.processlist.entries, " entry", " entries");
        plTxsWord.textContent = plural(n.processlist.transactions, " transaction", " transactions");
      } catch {
        // the next poll tries again
      }
    }, 2000),
  );

  // History for the charts and the latest blocks, after the first paint: pages of 50 summaries back to an
  // hour ago (at most 4). Live blocks that arrive meanwhile are newer and added after it.
  const live = addBlock;
  registry.listeners.push((e) => {
    if (e.event === "block" && !loaded) pending.push(e as unknown as BlockEvent);
  });
  void (async () => {
    const history: BlockEvent[] = [];
    let before: number | null = s.heights.directoryBlockHeight;
    const oldest = Date.now() / 1000 - CHART_WINDOW_SECONDS;
    for (let page = 0; page < 4 && before !== null; page++) {
      const p: { blocks: BlockEvent[]; next: number | null } = await view("blocks", { before, limit: 50 });
      history.push(...p.blocks);
      before = p.next;
      if (p.blocks.length === 0 || p.blocks[p.blocks.length - 1]!.timestamp < oldest) break;
    }
    for (const b of history.reverse()) live(b);
    for (const b of pending) if (b.height > s.heights.directoryBlockHeight) live(b);
    loaded = true;
  })().catch(() => {
    loaded = true;
  });

  const st = s.storage;
  return [
    h("h1", {}, "Overview"),
    h("p", { class: "sub" }, `ledgerd ${s.version} · ${s.network} · API port ${s.apiport} · panel ${s.setting}`),
    h(
      "div",
      { class: "cards" },
      h("div", { class: "card" }, h("h3", {}, "Directory block height"), heightEl),
      h("div", { class: "card" }, h("h3", {}, "Leader height"), leaderEl),
      h("div", { class: "card" }, h("h3", {}, "Entry block height"), ebEl),
      h("div", { class: "card" }, h("h3", {}, "Entry height"), entryHEl),
    ),
    h(
      "div",
      { class: "card wide" },
      h("h3", {}, "Open block ", h("span", { class: "muted" }, `(block time ${s.blocktimeseconds} s)`)),
      h("div", { class: "bar", role: "progressbar" }, bar),
      minuteText,
    ),
    h(
      "div",
      { class: "cards two" },
      h("div", { class: "card" }, h("h3", {}, "Entries per second (last hour)"), entriesChart),
      h("div", { class: "card" }, h("h3", {}, "Transactions per second (last hour)"), txChart),
    ),
    h(
      "div",
      { class: "cards" },
      h("div", { class: "card" }, h("h3", {}, "Health"), health),
      h("div", { class: "card" }, h("h3", {}, "Holding queue"), queue),
      h("div", { class: "card" }, h("h3", {}, "Process list"), plEntries, plEntriesWord, ", ", plTxs, plTxsWord),
      h(
        "div",
        { class: "card" },
        h("h3", {}, "Storage"),
        `database ${bytes(st.databasebytes)}, free ${bytes(st.freebytes)}`,
        h("br"),
        h("span", { class: "muted" }, `writes refused below ${bytes(st.reservebytes)} free`),
      ),
    ),
    h("h2", {}, "Servers"),
    servers,
    ...(scheduledPart(s.scheduled) ?? []),
    h("h2", {}, "Latest blocks ", link("blocks", "all blocks →", "more")),
    h(
      "table",
      { class: "list" },
      h("thead", {}, h("tr", {}, ...["Height", "KeyMR", "Time", "Entries", "Transactions"].map((x) => h("th", {}, x)))),
      latest,
    ),
  ];
}
