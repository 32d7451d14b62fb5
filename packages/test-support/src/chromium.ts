import { type Browser, chromium, type LaunchOptions } from 'playwright-core';

/** The flags every Chromium of the tests and benchmarks runs with: headless, no GPU, no background traffic. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Debian's Chromium, or the one `CHROMIUM_PATH` names. */
export const chromiumPath = (): string => process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** That Chromium through Playwright, with those flags (`opts` adds to them, e.g. a launch timeout). */
export function launchChromium(opts: LaunchOptions = {}): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_FLAGS, ...opts });
}
