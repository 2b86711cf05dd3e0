// Helpers the lesson tests share on top of harness.mjs: the site and browser every test file
// sets up, the quiet-page assertion, reading a canvas, and playing an event-time lesson (or any
// lesson whose clock stops when its input ends) to its end.

import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, serveDist, waitForApp } from './harness.mjs';

/**
 * Serves dist/ (or STREAMLAB_DIST, for a quick development build) under /streamlab/ and starts
 * a browser for the file's tests. Returns an object whose `site` and `browser` are set once
 * `before` has run.
 */
export function useSiteAndBrowser() {
  const shared = {};
  before(async () => {
    const root = process.env.STREAMLAB_DIST;
    shared.site = await serveDist({ subPath: '/streamlab/', ...(root ? { root } : {}) });
    shared.browser = await launchBrowser();
  });
  after(async () => {
    await shared.browser?.close();
    await shared.site?.close();
  });
  return shared;
}

/**
 * Opens `lesson` at `preset` on the site `env` serves, plays it to its end at top speed (for a
 * family whose producer stops at the run's end, and the clock with it) and returns the figures
 * the lesson reports, under the names `streamlab simulate` prints.
 */
export async function presetFiguresAtEnd(env, page, lesson, preset, { timeout = 90_000 } = {}) {
  // A whole load, as a link opened from a course page is: on a page already showing a lesson,
  // a new fragment alone would make the loader reload the page for another family's lesson
  // while the test read the old one (bundles.test.mjs checks that path).
  await page.goto('about:blank');
  await page.goto(`${env.site.url}#/${lesson}?preset=${preset}`);
  await waitForApp(page);
  await page.waitForFunction(() => window.streamlab?.get()?.lesson !== undefined);
  // Shortcuts stay out of text boxes, so move the focus off any knob first.
  await page.locator('.question').click();
  for (let i = 0; i < 4; i += 1) await page.keyboard.press('ArrowUp');
  if ((await page.locator('.transport button.primary').innerText()).includes('Play')) {
    await page.keyboard.press('Space');
  }
  await page.locator('.transport button.primary', { hasText: 'Play' }).waitFor({ timeout });
  // The end's picture comes first; the state a course page reads (`get()`) follows once the
  // app has written the address (see `writtenAddress`), and until then it is the last one
  // posted while playing, a little before the end.
  await page.waitForFunction(() => window.streamlab.get()?.playing === false, null, { timeout });
  return (await page.evaluate(() => window.streamlab.get())).figures;
}

/**
 * The page's address once it holds what is on screen. The app makes the share link and writes
 * the address bar in a task after the picture of the change it records, so a test that reads
 * the address (or goes Back) right after acting waits for that write, and for the bar to show
 * the link "Copy link" offers.
 */
export async function writtenAddress(page) {
  await page.waitForFunction(
    () => !window.__streamlab.addressStaged() && location.href === document.querySelector('.share-url')?.value,
  );
  return page.evaluate(() => location.href);
}

/** The page made no request outside the site, threw nothing and logged no error. */
export function assertQuiet(visit) {
  assert.deepEqual(visit.offOriginRequests, [], 'requests that leave the site');
  assert.deepEqual(visit.pageErrors, [], 'uncaught exceptions');
  assert.deepEqual(visit.consoleErrors, [], 'console errors');
}

/** Whether the canvas matching `selector` has any pixel that is not white. */
export const canvasHasInk = (page, selector) =>
  page.evaluate((s) => {
    const canvas = document.querySelector(s);
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    for (let p = 0; p < data.length; p += 4) {
      if (data[p] < 240 || data[p + 1] < 240 || data[p + 2] < 240) return true;
    }
    return false;
  }, selector);

/** The figures an event-time lesson publishes for tests. */
export const figures = (page) => page.evaluate(() => ({ ...window.__streamlab_eventtime }));

/**
 * Plays an event-time lesson at top speed until the input has ended and every window fired,
 * and returns the figures once the clock has stopped. A page opened from a link that already
 * stands at the end is not played: Play there would start the run again from zero.
 */
export async function playToEnd(page) {
  await page.waitForFunction(() => window.__streamlab_eventtime !== undefined);
  const ended = () => window.__streamlab_eventtime.simMs >= window.__streamlab_eventtime.inputEndMs;
  if (!(await page.evaluate(ended))) {
    // Shortcuts stay out of text boxes, so move the focus off any knob first.
    await page.locator('.question').click();
    for (let i = 0; i < 4; i += 1) await page.keyboard.press('ArrowUp');
    const playing = (await page.locator('.transport button.primary').innerText()).includes('Pause');
    if (!playing) await page.keyboard.press('Space');
    await page.waitForFunction(ended, undefined, { timeout: 60_000 });
  }
  // The clock stops itself at the end; once the button says so, the figures are final.
  await page.locator('.transport button.primary', { hasText: 'Play' }).waitFor();
  return figures(page);
}
