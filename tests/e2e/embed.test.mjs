// Embed mode, as a course page on another site uses it: tests/e2e/embed-host.html, served from
// its own origin, frames two lessons of the built site. Each renders without the site's chrome,
// the frames take the height each lesson posts (Pym.js's message format) and follow it when
// the content grows, and the keyboard works inside each frame once it has been clicked.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { launchBrowser, screenshot, serveDist } from './harness.mjs';

const hostPage = new URL('./embed-host.html', import.meta.url);
let site;
let host;
let browser;

before(async () => {
  const root = process.env.STREAMLAB_DIST;
  site = await serveDist({ subPath: '/streamlab/', ...(root ? { root } : {}) });
  const html = await readFile(hostPage);
  host = createServer((_, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html);
  });
  await new Promise((done) => host.listen(0, '127.0.0.1', done));
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await site?.close();
  await new Promise((done) => host?.close(done));
});

/** Polls `check` until it returns a truthy value (at most `limitMs`), and returns that value. */
async function eventually(check, what, limitMs = 20_000) {
  for (let waited = 0; ; waited += 100) {
    const value = await check();
    if (value) return value;
    if (waited >= limitMs) assert.fail(`never happened: ${what} (last: ${JSON.stringify(value)})`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

/** The frame's iframe height on the host page, and the height of the lesson inside it. */
async function heights(page, frame, id) {
  const iframe = await page.evaluate((i) => document.getElementById(i).getBoundingClientRect().height, id);
  const content = await frame.evaluate(() => Math.ceil(document.body.getBoundingClientRect().height));
  return { iframe, content };
}

const fitted = (h) => Math.abs(h.iframe - h.content) <= 1;

test('two embedded lessons render, fit their content, follow its height and take keys', { timeout: 120_000 }, async () => {
  const hostOrigin = `http://127.0.0.1:${host.address().port}`;
  const page = await browser.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  const elsewhere = [];
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (['data:', 'blob:'].includes(url.protocol) || [hostOrigin, site.origin].includes(url.origin)) {
      return route.continue();
    }
    elsewhere.push(url.href);
    return route.abort('blockedbyclient');
  });
  await page.goto(`${hostOrigin}/?site=${encodeURIComponent(site.url)}`);
  const frameA = await (await page.$('#lesson-a')).contentFrame();
  const frameB = await (await page.$('#lesson-b')).contentFrame();
  for (const frame of [frameA, frameB]) {
    await frame.locator('main.lesson').waitFor({ timeout: 30_000 });
    assert.equal(await frame.locator('.site-header').count(), 0, 'no site header when embedded');
    assert.equal(await frame.locator('.embed-header').count(), 1, 'a one-line title instead');
    assert.equal(await frame.locator('.lesson-text').isVisible(), false, 'no lesson text');
  }
  assert.equal(await frameA.locator('aside.side').isVisible(), true, 'A keeps its knobs');
  assert.equal(await frameB.locator('aside.side').isVisible(), false, 'B hides its knobs (embed=noknobs)');
  const openFull = await frameA.locator('.embed-header a').getAttribute('href');
  assert.ok(openFull.startsWith(site.url) && !openFull.includes('embed'), `full lesson link: ${openFull}`);

  // Each frame takes the height its lesson posts, not the 150 px an iframe starts with.
  const a = await eventually(async () => { const h = await heights(page, frameA, 'lesson-a'); return fitted(h) && h.iframe > 300 && h; }, 'frame A fits its lesson');
  // Chromium renders a frame only while it is in sight, and the observer reports on render.
  await page.locator('#lesson-b').scrollIntoViewIfNeeded();
  await eventually(async () => { const h = await heights(page, frameB, 'lesson-b'); return fitted(h) && h.iframe > 300 && h; }, 'frame B fits its lesson');

  // The lesson grows (the real-config panel opens): the frame follows.
  await page.locator('#lesson-a').scrollIntoViewIfNeeded();
  await frameA.locator('details.real-config summary').click();
  await eventually(async () => { const h = await heights(page, frameA, 'lesson-a'); return fitted(h) && h.iframe > a.iframe + 50 && h; }, 'frame A grows with its lesson');

  // Embedded lessons wait to be started, unless asked to autoplay; keys work once clicked.
  const button = (frame) => frame.locator('.transport button.primary').innerText();
  assert.match(await button(frameA), /Play/, 'A starts paused');
  await frameA.locator('.question').click();
  await page.keyboard.press('Space');
  await eventually(async () => /Pause/.test(await button(frameA)), 'Space in frame A plays it');
  await eventually(async () => (await frameA.locator('.clock').innerText()) !== 't = 0.0 s', 'time moves in A');
  await eventually(async () => /Pause/.test(await button(frameB)), 'B autoplays');
  await frameB.locator('.question').click();
  await page.keyboard.press('Space');
  await eventually(async () => /Play/.test(await button(frameB)), 'Space in frame B pauses it');
  assert.match(await button(frameA), /Pause/, 'a key in B does not reach A');
  await page.keyboard.press('?');
  await frameB.locator('.shortcut-sheet').waitFor();
  await page.keyboard.press('Escape');
  await frameB.locator('.shortcut-sheet').waitFor({ state: 'detached' });

  await screenshot(page, 'embed-host');
  assert.deepEqual(elsewhere, [], 'requests outside the host and the site');
  assert.deepEqual(problems, [], 'errors in the page or its frames');
  await page.close();
});

test('a locked lesson disables its inputs until the learner reveals the run', { timeout: 90_000 }, async () => {
  const page = await browser.newPage();
  await page.goto(`${site.url}#/rebalances?embed&lock&preset=rebalance-storm`);
  await page.locator('main.lesson').waitFor({ timeout: 30_000 });
  assert.equal(await page.locator('aside.side').getAttribute('inert'), 'inert', 'knobs and presets are inert');
  assert.equal(await page.locator('.member-actions').count() > 0 && await page.locator('.member-actions').isVisible(), false);
  assert.match(await page.locator('.transport button.primary').innerText(), /Play/, 'waits for a prediction');
  await screenshot(page, 'embed-locked');
  await page.locator('.challenge button').click();
  await page.locator('.challenge').waitFor({ state: 'detached' });
  // Revealing runs it.
  await page.locator('.transport button.primary', { hasText: 'Pause' }).waitFor();
  await page.locator('.question').click();
  await page.keyboard.press('Space');
  await page.locator('.transport button.primary', { hasText: 'Play' }).waitFor();
  assert.equal(await page.locator('.challenge').count(), 0, 'pausing does not bring the challenge back');
  await page.close();
});
