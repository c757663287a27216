/**
 * The panel's browser tests' Chromium (panel-browser.test.ts, panel-browser-anchor.test.ts): the Debian package's
 * binary, headless, in a throwaway profile, one page whose console errors, page errors and requests to anything
 * but the allowed origins are collected into `problems` (a test ends asserting it is empty).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../../tools/panel/headlessChromium.js";

export interface PanelBrowser {
  context: BrowserContext;
  page: Page;
  /** the browser's throwaway profile directory (a test may keep files there; removed by `close`) */
  profile: string;
  /** closes the browser and removes its profile */
  close(): Promise<void>;
}

/**
 * Start Chromium on one page. `allowed`: URL prefixes the page may request (the panel's http and ws origins are
 * derived from `panel`); `what` names them in a problem line; `failedRequests` also records requests that fail.
 */
export async function openPanelBrowser(options: {
  panel: string;
  allowed?: readonly string[];
  what?: string;
  failedRequests?: boolean;
  problems: string[];
}): Promise<PanelBrowser> {
  const { panel, problems } = options;
  const allowed = [panel, panel.replace("http", "ws"), ...(options.allowed ?? [])];
  const profile = mkdtempSync(join(tmpdir(), "ledgerd-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS],
    viewport: { width: 1280, height: 900 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  if (options.failedRequests === true)
    page.on("requestfailed", (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText ?? ""}`));
  page.on("request", (r) => {
    const u = r.url();
    if (!allowed.some((a) => u.startsWith(a))) problems.push(`request outside ${options.what ?? "the panel"}: ${u}`);
  });
  return {
    context,
    page,
    profile,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
