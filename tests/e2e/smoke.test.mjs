// The built site loads from a sub-path of a static host, the WebAssembly app starts and
// renders, and the page stays quiet: no console errors, no uncaught exceptions, no failed
// loads and no request outside its own folder.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPage, screenshot, serveDist, waitForApp } from './harness.mjs';

const subPath = '/course/week1/';
let site;
let browser;

before(async () => {
  site = await serveDist({ subPath });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await site?.close();
});

test('the site loads from a sub-path and the app renders with a quiet console', { timeout: 90_000 }, async () => {
  const visit = await openPage(browser, site.url);
  await waitForApp(visit.page);
  await screenshot(visit.page, 'smoke-sub-path');

  const main = visit.page.locator('main');
  assert.equal(await main.count(), 1, 'exactly one <main>');
  assert.notEqual((await main.innerText()).trim(), '', '<main> shows some text');

  const wasm = visit.responses.filter((response) => new URL(response.url).pathname.endsWith('.wasm'));
  assert.equal(wasm.length, 1, `one .wasm module loaded, got ${JSON.stringify(wasm)}`);
  assert.equal(wasm[0].status, 200);
  assert.equal(wasm[0].contentType, 'application/wasm');

  // Relative URLs: everything the page asked for lies inside the folder it was served from.
  const outsideFolder = visit.responses
    .map((response) => new URL(response.url))
    .filter((url) => url.origin === site.origin && !url.pathname.startsWith(subPath));
  assert.deepEqual(outsideFolder.map(String), [], 'requests outside the sub-path');

  assert.deepEqual(visit.offOriginRequests, [], 'requests that leave the site');
  assert.deepEqual(visit.failedResponses, [], 'failed loads');
  assert.deepEqual(visit.pageErrors, [], 'uncaught exceptions');
  assert.deepEqual(visit.consoleErrors, [], 'console errors');
  await visit.page.close();
});

test('the folder address without its trailing slash redirects into the folder', { timeout: 90_000 }, async () => {
  const visit = await openPage(browser, site.url.replace(/\/$/, ''));
  await waitForApp(visit.page);
  assert.equal(visit.page.url(), site.url);
  assert.deepEqual(visit.failedResponses, [], 'failed loads');
  await visit.page.close();
});
