/**
 * How the panel's browser test and the screenshot tool start Chromium: the Debian package's binary
 * (`make os-packages-test` installs it; never a browser download), headless, with the switches this closed
 * network needs.
 */

/** The Debian `chromium` package's binary. */
export const CHROMIUM_PATH = "/usr/bin/chromium";

/**
 * Launch switches. Without the background-networking ones this closed network refuses the browser's own
 * connections (component updates, sync) and the start waits for them.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
