import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { REQUIRE_SERVICES } from './databases';

/** Debian's Chromium, driven by playwright-core (no browser download); CHROMIUM_PATH overrides. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Whether the browser tests can run: false (skip) without Chromium, an error under CI=true. */
export function chromiumInstalled(): boolean {
  if (fs.existsSync(CHROMIUM)) return true;
  if (REQUIRE_SERVICES) throw new Error(`CI=true and Chromium is missing at ${CHROMIUM} (apt-get install -y chromium)`);
  return false;
}

/** A headless Chromium with a fresh profile, as a phone in Mexico would open the pages; `close` removes the profile. */
export async function launchPhoneBrowser(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cf-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    locale: 'es-MX',
    viewport: { width: 390, height: 844 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
