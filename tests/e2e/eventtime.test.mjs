// The first event-time lesson, "Which clock?": it loads from its own address, draws its chart
// and arrivals strip, shows the processing-time spike after the outage while event time matches
// the truth, puts a knob change into the link so the link reproduces the run, explains a broken
// link, and stays quiet (no console errors, no request leaving the site).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshot, waitForApp } from './harness.mjs';
import { assertQuiet, canvasHasInk, playToEnd, useSiteAndBrowser, writtenAddress } from './lesson-helpers.mjs';

const env = useSiteAndBrowser();

test('the lesson loads from its address and draws its chart and strip', { timeout: 90_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/which-clock`);
  const { page } = visit;
  await waitForApp(page);
  await page.waitForFunction(() => window.__streamlab_eventtime?.simMs > 5000);
  assert.match(await page.locator('.question').innerText(), /Which clock was I counting by\?/);
  assert.ok(await canvasHasInk(page, '.et-chart canvas'), 'the chart is drawn');
  assert.ok(await canvasHasInk(page, '.et-strip canvas'), 'the strip is drawn');
  assert.equal(await page.locator('.site-header nav a.current').innerText(), 'Which clock?');
  await screenshot(page, 'eventtime-which-clock-start');
  assertQuiet(visit);
  await page.close();
});

test('after the outage, processing time spikes above the truth and event time matches it', { timeout: 120_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/which-clock`);
  const { page } = visit;
  await waitForApp(page);
  const end = await playToEnd(page);
  // The preset's 40 s outage at 20 events/s leaves about 800 records to drain into one window.
  assert.ok(end.maxProcessingOverTruth > 300, `processing time over truth: ${end.maxProcessingOverTruth}`);
  assert.equal(end.maxEventTimeOffTruth, 0, 'every event-time window matches the truth');
  assert.ok(end.eventTimeWindowsFired >= 6, 'every event-time window fired');
  // The same figure is on screen, and the narration says why.
  const shown = Number((await page.locator('.et-overcount').innerText()).replace('+', ''));
  assert.equal(shown, end.maxProcessingOverTruth);
  assert.match(await page.locator('.narration ol').textContent(), /the backlog from the outage drained into it/);
  assert.equal(await page.locator('.et-watermark').innerText(), 'end of input');
  await screenshot(page, 'eventtime-which-clock-end');
  assertQuiet(visit);
  await page.close();
});

test('a knob change lands in the link and the link reproduces the run', { timeout: 150_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/which-clock`);
  const { page } = visit;
  await waitForApp(page);
  const before = await playToEnd(page);
  const unchanged = await page.evaluate(() => location.href);
  await page.fill('#knob-et-outage-duration', '80000');
  await page.dispatchEvent('#knob-et-outage-duration', 'change');
  // The link is written a task after the new picture, the address and the share box together.
  await page.waitForFunction((old) => location.href !== old, unchanged);
  const link = await writtenAddress(page);
  assert.match(link, /\?s=2\./);
  // Played again from the start of the link: a change made at the end of a run is simulated in
  // one jump, and the figures would be read before the page had drawn them.
  await page.reload();
  await waitForApp(page);
  const changed = await playToEnd(page);
  assert.ok(
    changed.maxProcessingOverTruth > before.maxProcessingOverTruth,
    `a longer outage, a bigger spike: ${before.maxProcessingOverTruth} → ${changed.maxProcessingOverTruth}`,
  );
  assertQuiet(visit);
  await page.close();

  const again = await openPage(env.browser, link);
  await waitForApp(again.page);
  assert.equal(await again.page.inputValue('#knob-et-outage-duration'), '80000');
  const reproduced = await playToEnd(again.page);
  assert.deepEqual(reproduced, changed, 'the link gives the same run');
  await screenshot(again.page, 'eventtime-which-clock-from-link');
  assertQuiet(again);
  await again.page.close();
});

test('a garbage link shows a message and the default scenario', { timeout: 90_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/which-clock?s=2.not-a-real-link!!`);
  const { page } = visit;
  await waitForApp(page);
  const banner = page.locator('.error-banner');
  await banner.waitFor();
  assert.match(await banner.innerText(), /This link could not be read.*default scenario/s);
  assert.equal(await page.inputValue('#knob-et-outage-duration'), '40000', "the preset's outage");
  assert.equal(await page.inputValue('#knob-et-window-size'), '30000', "the preset's windows");
  await screenshot(page, 'eventtime-which-clock-bad-link');
  assertQuiet(visit);
  await page.close();
});
