import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

const chromiumPath = '/usr/bin/chromium';
const repoRoot = path.resolve(import.meta.dirname, '../../../..');

/** Where screenshots go: `test-artifacts/screenshots/<page>-<width>.png` under the repository root. */
export const screenshotDir = path.join(repoRoot, 'test-artifacts', 'screenshots');

/** Fails with a clear message when the web app has not been built (the gateway serves `web/dist`). */
export function assertWebAppBuilt(): void {
  const indexPath = path.join(repoRoot, 'web', 'dist', 'index.html');
  if (!existsSync(indexPath)) {
    throw new Error(
      `${indexPath} is missing: build the web app first (node_modules/.bin/vite build --config web/vite.config.ts)`,
    );
  }
}

export type TestBrowser = {
  context: BrowserContext;
  /** Opens a page at the given viewport size; script errors and console errors on it land in `pageErrors`. */
  openPage: (options?: { width?: number; height?: number }) => Promise<Page>;
  pageErrors: string[];
  close: () => Promise<void>;
};

/**
 * Debian's Chromium, headless, with a fresh profile (so localStorage starts empty) and no background traffic.
 * Never downloads a browser.
 */
export async function launchBrowser(): Promise<TestBrowser> {
  if (!existsSync(chromiumPath)) throw new Error(`${chromiumPath} is missing: install Debian's chromium package`);
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'gateway-browser-profile-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath,
    headless: true,
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const pageErrors: string[] = [];
  mkdirSync(screenshotDir, { recursive: true });
  return {
    context,
    pageErrors,
    openPage: async (options = {}) => {
      const page = await context.newPage();
      await page.setViewportSize({ width: options.width ?? 1280, height: options.height ?? 800 });
      page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error') pageErrors.push(`${page.url()}: console: ${message.text()}`);
      });
      return page;
    },
    close: async () => {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
