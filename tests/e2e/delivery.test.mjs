// The delivery lesson: each preset a course links to opens from its link, runs, and shows the
// tally it is named after; the crash button puts a crash into the link.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshot, waitForApp } from './harness.mjs';
import { assertQuiet, useSiteAndBrowser } from './lesson-helpers.mjs';

const env = useSiteAndBrowser();

/** The tallies shown for `group`, by label. */
const tallies = (page, group) =>
  page.evaluate((g) => {
    const block = document.querySelector(`.tallies[data-group="${g}"]`);
    const out = {};
    for (const counter of block.querySelectorAll('.counter')) {
      const label = counter.querySelector('.counter-label').textContent;
      out[label.split(' (')[0].split(':')[0]] = Number(counter.querySelector('.counter-value').textContent);
    }
    return out;
  }, group);

/** Plays at 16× until the simulated clock passes `ms`, then pauses. */
async function playPast(page, ms) {
  await page.locator('.question').click();
  for (let i = 0; i < 4; i += 1) await page.keyboard.press('ArrowUp');
  const playing = (await page.locator('.transport button.primary').innerText()).includes('Pause');
  if (!playing) await page.keyboard.press('Space');
  await page.waitForFunction((t) => window.__streamlab.simMs() >= t, ms, { timeout: 60_000 });
  await page.keyboard.press('Space');
}

const PRESETS = [
  {
    name: 'commit-before-loss', until: 25_000, group: 'search',
    check: (t) => { assert.ok(t['records lost'] > 0, 'lost'); assert.equal(t['records with duplicate effects'], 0); },
  },
  {
    name: 'commit-after-duplicates', until: 25_000, group: 'search',
    check: (t) => { assert.equal(t['records lost'], 0); assert.ok(t['records with duplicate effects'] > 0, 'duplicated'); },
  },
  {
    name: 'idempotent-sink-effectively-once', until: 25_000, group: 'search',
    check: (t) => { assert.equal(t['records lost'], 0); assert.equal(t['records with duplicate effects'], 0); assert.ok(t['records with exactly one effect'] > 1000); },
  },
  {
    name: 'analytics-falls-behind-retention', until: 50_000, group: 'analytics',
    check: (t) => assert.ok(t['of the lost'] > 0, 'lost to retention'),
  },
  {
    name: 'replay-after-bug-fix', until: 45_000, group: 'search',
    check: (t) => assert.ok(t['records with duplicate effects'] > 1000, 'the replay re-reads'),
  },
  {
    name: 'poison-message-holds-the-line', until: 28_000, group: 'search',
    check: (t) => assert.ok(t['records dead-lettered'] > 0, 'dead-lettered'),
  },
];

for (const preset of PRESETS) {
  test(`the ${preset.name} preset opens from its link and shows its tally`, { timeout: 120_000 }, async () => {
    const visit = await openPage(env.browser, `${env.site.url}#/delivery?preset=${preset.name}`);
    const { page } = visit;
    await waitForApp(page);
    assert.equal(await page.locator('.error-banner').count(), 0, 'the preset exists');
    await playPast(page, preset.until);
    preset.check(await tallies(page, preset.group));
    assert.ok((await page.locator('svg.delivery-log .cell').count()) > 20, 'the sink view is drawn');
    if (preset.name.startsWith('poison')) {
      assert.match(await page.locator('.dlq').innerText(), /events\.DLT/);
    }
    await screenshot(page, `delivery-${preset.name}`);
    assertQuiet(visit);
    await page.close();
  });
}

test('the crash button puts the crash into the link', { timeout: 90_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/delivery?preset=commit-after-duplicates`);
  const { page } = visit;
  await waitForApp(page);
  await page.getByRole('button', { name: 'Crash c3' }).click();
  await page.waitForFunction(() => location.hash.includes('?s=2.'));
  await page.waitForSelector('.delivery-actions button:text("Start c3")', { timeout: 20_000 });
  assertQuiet(visit);
  await page.close();
});

test('a new group started at earliest reads the retained history', { timeout: 90_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/delivery?preset=analytics-falls-behind-retention`);
  const { page } = visit;
  await waitForApp(page);
  await playPast(page, 30_000);
  await page.getByRole('button', { name: 'Start a new group at earliest' }).click();
  await page.waitForSelector('.tallies[data-group="recommender"]');
  await playPast(page, 40_000);
  const t = await tallies(page, 'recommender');
  assert.ok(t['records with exactly one effect'] > 1000, 'it read the history');
  // One member at 10 ms a record only just keeps pace with the producer, so it never catches up
  // with the 20 s of history it started with: whatever it loses, retention deleted unread.
  assert.equal(t['records lost'], t['of the lost']);
  await screenshot(page, 'delivery-new-group-at-earliest');
  assertQuiet(visit);
  await page.close();
});
