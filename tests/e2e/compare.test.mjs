// Comparing any lesson with itself: from any moment the run forks into two futures on the same
// seed, one change on side B; both play in step, the scrubber marks where they first differ,
// each headline figure shows on both sides with the difference, and the link carries it all.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshot, waitForApp } from './harness.mjs';
import { assertQuiet, playToEnd, useSiteAndBrowser, writtenAddress } from './lesson-helpers.mjs';

const env = useSiteAndBrowser();

/** The figures table: name → [A, B]. */
const figureRows = (page) =>
  page.evaluate(() => Object.fromEntries([...document.querySelectorAll('.compare-figures tbody tr')]
    .map((row) => [row.dataset.figure, [...row.querySelectorAll('td')].slice(0, 2).map((td) => Number(td.textContent))])));

test('a change of your own on side B: both runs play in step, the difference is marked, counted and linked', { timeout: 150_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/partitions`);
  const { page } = visit;
  await waitForApp(page);
  await page.locator('.transport button.primary', { hasText: 'Pause' }).click();
  await page.locator('.compare-toggle button', { hasText: 'of your own' }).click();
  assert.equal(await page.locator('svg.diagram').count(), 2, 'two pictures side by side');
  // The next change goes to side B only: one slow member on B.
  await page.fill('#knob-g0-processing-time', '40');
  await page.dispatchEvent('#knob-g0-processing-time', 'change');
  const captions = await page.locator('.side-by-side > figure > figcaption').allInnerTexts();
  assert.match(captions[0], /^A: Processing time = 10$/);
  assert.match(captions[1], /^B: Processing time = 40$/);
  // Play both in step for a while, then pause.
  await page.locator('.question').click();
  for (let i = 0; i < 3; i += 1) await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Space');
  await page.waitForFunction(() => window.__streamlab.simMs() > 15_000, undefined, { timeout: 60_000 });
  await page.keyboard.press('Space');
  await page.locator('.transport button.primary', { hasText: 'Play' }).waitFor();
  await page.locator('.scrubber-mark.difference').waitFor();
  assert.match(await page.locator('.compare-verdict').innerText(), /first differ at \d+:\d\d \([1-9]\d* figures differ now\)/);
  const rows = await figureRows(page);
  const [lagA, lagB] = rows['search.lag'];
  assert.ok(lagB > lagA, `the slower side B lags more: A ${lagA}, B ${lagB}`);
  assert.equal(rows.produced[0], rows.produced[1], 'the same seed produces the same records');
  const differs = await page.locator('.compare-figures tbody tr')
    .evaluateAll((trs) => trs.map((tr) => tr.classList.contains('differs')));
  assert.ok(differs.includes(false), 'some figures are the same on both sides');
  assert.deepEqual(differs, [...differs].sort((a, b) => b - a), `the figures that differ come first: ${differs}`);
  const address = await writtenAddress(page);
  assert.match(address, /&vs=2\./, 'the comparison is in the link');
  await screenshot(page, 'compare-partitions');

  // The link reopens both sides at the same moment.
  const again = await openPage(env.browser, address);
  await waitForApp(again.page);
  assert.equal(await again.page.locator('svg.diagram').count(), 2);
  assert.deepEqual(await figureRows(again.page), rows, 'the same figures on both sides');
  assertQuiet(visit);
  assertQuiet(again);
  await page.close();
  await again.page.close();
});

test('an event-time lesson compares with itself too: side B restates what side A drops', { timeout: 180_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/watermarks?preset=mobile-stragglers`);
  const { page } = visit;
  await waitForApp(page);
  await page.locator('.compare-toggle button', { hasText: 'of your own' }).click();
  await page.fill('#knob-et-allowed-lateness', '30000');
  await page.dispatchEvent('#knob-et-allowed-lateness', 'change');
  await playToEnd(page);
  const rows = await figureRows(page);
  assert.ok(rows.dropped[0] > rows.dropped[1], `more lateness drops fewer: ${rows.dropped}`);
  assert.ok(rows.late_panes[1] > rows.late_panes[0], `and fires more late panes: ${rows.late_panes}`);
  assert.match((await page.locator('.side-by-side > figure > figcaption').allInnerTexts())[1], /allowedLateness = 30000/);
  assertQuiet(visit);
  await page.close();
});
