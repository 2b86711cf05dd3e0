// Helpers for the end-to-end tests: serve the built site (dist/) the way a static host would,
// drive Debian's Chromium with playwright-core, and record everything a page does that a
// visitor would notice (console errors, uncaught exceptions, requests that leave the site).
//
// Build the site first (`cargo xtask dist`, or let `cargo xtask test` do it).

import { createServer } from 'node:http';
import { mkdtemp, mkdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const distDir = join(repoRoot, 'dist');
export const artifactsDir = join(repoRoot, 'tests', 'artifacts');

/** Debian's Chromium; playwright-core never downloads a browser of its own. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Without the networking flags Chromium phones home at start-up (component updates, sync),
// which a closed network refuses; --no-sandbox because tests may run as root.
export const chromiumArgs = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

// application/wasm matters: without it the browser cannot stream-compile the module.
const mimeTypes = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
  '.woff2': 'font/woff2',
};

/**
 * Serves `root` (dist/ by default) on 127.0.0.1 at a random port, under `subPath`, like a
 * static host that publishes the site in a folder. A request for the folder without its
 * trailing slash is redirected, as static hosts do, so relative URLs resolve inside it.
 * Returns { origin, url, close() }, where url is the site's own address.
 */
export async function serveDist({ subPath = '/', root = distDir } = {}) {
  const base = `/${subPath.split('/').filter(Boolean).join('/')}/`.replace('//', '/');
  const rootDir = resolve(root);
  await stat(join(rootDir, 'index.html')).catch(() => {
    throw new Error(`${join(rootDir, 'index.html')} is missing: build the site with \`cargo xtask dist\``);
  });

  const server = createServer(async (request, response) => {
    const send = (status, headers, body) => {
      response.writeHead(status, headers);
      response.end(request.method === 'HEAD' ? undefined : body);
    };
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return send(405, { allow: 'GET, HEAD' }, 'method not allowed');
    }
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(request.url, 'http://host').pathname);
    } catch {
      return send(400, { 'content-type': 'text/plain' }, 'bad request');
    }
    if (`${pathname}/` === base) {
      return send(301, { location: base }, '');
    }
    if (!pathname.startsWith(base)) {
      return send(404, { 'content-type': 'text/plain' }, 'not found');
    }
    let file = resolve(rootDir, `.${sep}${pathname.slice(base.length)}`);
    if (file !== rootDir && !file.startsWith(rootDir + sep)) {
      return send(403, { 'content-type': 'text/plain' }, 'forbidden');
    }
    try {
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      const type = mimeTypes[extname(file).toLowerCase()] ?? 'application/octet-stream';
      send(200, { 'content-type': type, 'cache-control': 'no-store' }, body);
    } catch {
      send(404, { 'content-type': 'text/plain' }, 'not found');
    }
  });
  await new Promise((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolveListen);
  });
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    url: `${origin}${base}`,
    close: () => new Promise((done) => server.close(done)),
  };
}

/**
 * Starts headless Chromium with a fresh, empty profile. Returns a playwright BrowserContext;
 * its close() also deletes the profile.
 */
export async function launchBrowser({ extraArgs = [] } = {}) {
  const userDataDir = await mkdtemp(join(tmpdir(), 'streamlab-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath,
    headless: true,
    args: [...chromiumArgs, ...extraArgs],
    viewport: { width: 1280, height: 800 },
  });
  const close = context.close.bind(context);
  context.close = async () => {
    await close();
    await rm(userDataDir, { recursive: true, force: true });
  };
  return context;
}

/**
 * Opens a new page in `browser` (from launchBrowser) and starts recording, then loads `url`.
 * The site must make no request outside its own origin: such requests are recorded and
 * aborted, so a test fails on them even where the network is open.
 * `setUp(page)`, if given, runs before the page loads (to emulate media, size the viewport or
 * add init scripts). Returns { page, consoleErrors, pageErrors, offOriginRequests,
 * failedResponses, responses }.
 */
export async function openPage(browser, url, { waitUntil = 'load', setUp } = {}) {
  const ownOrigin = new URL(url).origin;
  const page = await browser.newPage();
  const record = {
    page,
    consoleErrors: [],
    pageErrors: [],
    offOriginRequests: [],
    failedResponses: [],
    responses: [],
  };
  page.on('console', (message) => {
    if (message.type() === 'error') record.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => record.pageErrors.push(String(error)));
  page.on('response', (response) => {
    const entry = {
      url: response.url(),
      status: response.status(),
      contentType: response.headers()['content-type'] ?? '',
    };
    record.responses.push(entry);
    if (entry.status >= 400) record.failedResponses.push(entry);
  });
  page.on('requestfailed', (request) => {
    if (new URL(request.url()).origin === ownOrigin) {
      record.failedResponses.push({ url: request.url(), status: 0, contentType: '' });
    }
  });
  await page.route('**/*', (route) => {
    const requested = new URL(route.request().url());
    // data: and blob: URLs never leave the page.
    if (requested.protocol === 'data:' || requested.protocol === 'blob:' || requested.origin === ownOrigin) {
      return route.continue();
    }
    record.offOriginRequests.push(requested.href);
    return route.abort('blockedbyclient');
  });
  if (setUp) await setUp(page);
  await page.goto(url, { waitUntil });
  return record;
}

/** Saves a full-page PNG as tests/artifacts/<name>.png and returns its path. */
export async function screenshot(page, name) {
  await mkdir(artifactsDir, { recursive: true });
  const path = join(artifactsDir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * Waits until the app has rendered: `main` exists and has content. Yew renders it from the
 * WebAssembly module, so a rendered `main` also proves the module loaded and started.
 */
export async function waitForApp(page, { timeout = 30_000 } = {}) {
  await page.waitForFunction(
    () => {
      const main = document.querySelector('main');
      return main !== null && (main.childElementCount > 0 || main.textContent.trim() !== '');
    },
    undefined,
    { timeout },
  );
}

/** Waits until a lesson page has reached its link's time: its clock stands still across two reads. */
export async function waitForSettledClock(page) {
  let before = -1;
  for (;;) {
    const now = await page.evaluate(() => window.__streamlab.simMs());
    if (now === before && now > 0) return;
    before = now;
    await page.waitForTimeout(400);
  }
}
