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

/** The lag (records waiting) the counters show for `group`. */
const lag = (page, group) =>
  page.evaluate((g) => {
    const block = [...document.querySelectorAll('.counter-group')].find((b) => b.querySelector('h3').textContent === g);
    const counter = [...block.querySelectorAll('.counter')].find((c) => c.textContent.includes('lag (records waiting)'));
    return Number(counter.querySelector('.counter-value').textContent);
  }, group);

/** Speeds the clock up four steps and plays (the page may already be playing). */
async function play(page) {
  await page.locator('.question').click();
  for (let i = 0; i < 4; i += 1) await page.keyboard.press('ArrowUp');
  const playing = (await page.locator('.transport button.primary').innerText()).includes('Pause');
  if (!playing) await page.keyboard.press('Space');
}

/** Plays faster until the simulated clock passes `ms`, then pauses. */
async function playPast(page, ms) {
  await play(page);
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

/** How many records the delivery logs draw, in one state (`cell-lost`...) or in all. */
const drawnCells = (page, state = '') => page.evaluate(
  (selector) => [...document.querySelectorAll(selector)].reduce((sum, path) => sum + Number(path.dataset.cells), 0),
  `svg.delivery-log path[data-cells]${state ? `.${state}` : ''}`,
);

for (const preset of PRESETS) {
  test(`the ${preset.name} preset opens from its link and shows its tally`, { timeout: 120_000 }, async () => {
    const visit = await openPage(env.browser, `${env.site.url}#/delivery?preset=${preset.name}`);
    const { page } = visit;
    await waitForApp(page);
    assert.equal(await page.locator('.error-banner').count(), 0, 'the preset exists');
    await playPast(page, preset.until);
    preset.check(await tallies(page, preset.group));
    assert.ok((await drawnCells(page)) > 20, 'the sink view is drawn');
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
  // About ten simulated seconds at 100 records a second: it has been working through history.
  assert.ok(t['records with exactly one effect'] > 500, 'it processed records');
  // Started at latest it would be level with the producer; at earliest it still has most of the
  // retained history ahead of it.
  assert.ok((await lag(page, 'recommender')) > 1000, 'it started behind, at the oldest retained record');
  // One member at 10 ms a record only just keeps pace with the producer, so it never catches up
  // with the 20 s of history it started with: whatever it loses, retention deleted unread.
  assert.equal(t['records lost'], t['of the lost']);
  await screenshot(page, 'delivery-new-group-at-earliest');
  assertQuiet(visit);
  await page.close();
});

test('a repeat the idempotent store ignored is drawn apart from a second effect', { timeout: 90_000 }, async () => {
  // 23.3 s: both presets are re-reading what the crashed member had written but not committed.
  const cells = async (preset) => {
    const visit = await openPage(env.browser, `${env.site.url}#/delivery?preset=${preset}&t=23300`);
    await waitForApp(visit.page);
    await visit.page.waitForFunction(() => window.__streamlab.simMs() >= 23_300);
    const count = (state) => drawnCells(visit.page, state);
    const found = { ignored: await count('cell-ignored'), repeated: await count('cell-repeated') };
    if (preset.startsWith('idempotent')) await screenshot(visit.page, 'delivery-ignored-repeats');
    assertQuiet(visit);
    await visit.page.close();
    return found;
  };
  const plain = await cells('commit-after-duplicates');
  assert.ok(plain.repeated > 0, `a plain store shows second effects: ${JSON.stringify(plain)}`);
  assert.equal(plain.ignored, 0);
  const idempotent = await cells('idempotent-sink-effectively-once');
  assert.ok(idempotent.ignored > 0, `the idempotent store shows ignored repeats: ${JSON.stringify(idempotent)}`);
  assert.equal(idempotent.repeated, 0, 'and no second effect');
});

test('pointing at a record outlines it and the caption names its offset and state', { timeout: 90_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/delivery?preset=commit-after-duplicates&t=23300`);
  const { page } = visit;
  await waitForApp(page);
  await page.waitForFunction(() => window.__streamlab.simMs() >= 23_300);
  const log = page.locator('svg.delivery-log').first();
  const caption = page.locator('.delivery-log-caption').first();
  assert.match(await caption.innerText(), /^Point at a record/);
  await log.scrollIntoViewIfNeeded();
  const box = await log.boundingBox();
  const scale = box.width / Number(await log.getAttribute('width'));
  // Row p1, column 20: the log's cells are 22 units apart after a 34-unit label, rows 30 apart.
  await page.mouse.move(box.x + (34 + 22 * 20 + 11) * scale, box.y + (30 + 13) * scale);
  await page.locator('svg.delivery-log .delivery-pointed').first().waitFor();
  const words = await caption.innerText();
  const [, offset, state] = words.match(/^p1 offset (\d+): ([^—]+)/) ?? [];
  assert.ok(offset, `the caption names the record: ${words}`);
  // The caption's state is the one the record is drawn in: its square is in that state's path.
  const square = 'M475 34h';
  const drawnIn = await log.evaluate((svg, square) => [...svg.querySelectorAll('path[data-cells]')]
    .find((path) => path.getAttribute('d').includes(square))?.classList[1], square);
  const WORDS = {
    'cell-once': 'written once', 'cell-ignored': 'written again, the repeat ignored', 'cell-repeated': 'written again: more than one effect',
    'cell-lost': 'lost: never written', 'cell-dead': 'dead-lettered', 'cell-waiting': 'waiting', 'cell-deleted': 'deleted by retention',
  };
  assert.ok(state.startsWith(WORDS[drawnIn]), `drawn as ${drawnIn}, captioned "${state}"`);
  await screenshot(page, 'delivery-pointed-record');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height + 200);
  await page.locator('svg.delivery-log .delivery-pointed').first().waitFor({ state: 'detached' });
  assert.match(await caption.innerText(), /^Point at a record/, 'the caption forgets the record the pointer left');
  assertQuiet(visit);
  await page.close();
});

/** The narration's lines, newest first (their text, laid out or not: lines out of view are not laid out). */
const narration = (page) => page.locator('.narration li .text').allTextContents();

test('an upsert by key after a crash loses nothing and repeats no effect', { timeout: 120_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/delivery?preset=commit-after-duplicates`);
  const { page } = visit;
  await waitForApp(page);
  await page.selectOption('#knob-g0-sink', 'by-key');
  await page.waitForFunction(() => location.hash.includes('?s=2.'));
  await playPast(page, 25_000);
  const t = await tallies(page, 'search');
  assert.equal(t['records lost'], 0);
  assert.equal(t['records with duplicate effects'], 0, 'the replayed writes are ignored');
  assert.ok(t['records with exactly one effect'] > 1000);
  assert.match(await page.locator('.delivery-group h3').first().innerText(), /upsert by record key/);
  await screenshot(page, 'delivery-upsert-by-key');
  assertQuiet(visit);
  await page.close();
});

test('transient failures mostly pass on a retry, and the diagram says which member retries', { timeout: 120_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/delivery?preset=poison-message-holds-the-line`);
  const { page } = visit;
  await waitForApp(page);
  await page.fill('#knob-g0-transient-failures', '0.003');
  await page.dispatchEvent('#knob-g0-transient-failures', 'change');
  await page.waitForFunction(() => location.hash.includes('?s=2.'));
  await play(page);
  // A member waiting out a back-off is labelled with its retry count, not only a colour.
  await page.waitForFunction(
    () => [...document.querySelectorAll('g.member.retrying text')].some((t) => /↻ retry \d+\/3/.test(t.textContent)),
    null, { timeout: 60_000 },
  );
  await page.keyboard.press('Space');
  await screenshot(page, 'delivery-member-retrying');
  await playPast(page, 20_000);
  const lines = await narration(page);
  assert.ok(lines.some((l) => /on attempt \d: the failure was transient/.test(l)), 'a record got through on a retry');
  const t = await tallies(page, 'search');
  assert.equal(t['records lost'], 0);
  assert.equal(t['records with duplicate effects'], 0);
  assertQuiet(visit);
  await page.close();
});

test('the buttons act on the group picked, and reset it to latest or to a time', { timeout: 120_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/delivery?preset=analytics-falls-behind-retention`);
  const { page } = visit;
  await waitForApp(page);
  await playPast(page, 20_000);
  await page.selectOption('.delivery-actions select', { label: 'analytics' });
  await page.getByRole('button', { name: 'Reset offsets to latest' }).click();
  await page.waitForFunction(() => location.hash.includes('?s=2.'));
  // An action lands a millisecond after the paused clock: one step carries the run past it.
  const step = () => page.locator('.transport button', { hasText: 'Step' }).click();
  const narrated = (start) => page.locator('.narration li', { hasText: start }).first().waitFor({ timeout: 10_000 });
  await step();
  await narrated("analytics's offsets are reset to the log end");
  await page.fill('.reset-time input', '5');
  await page.dispatchEvent('.reset-time input', 'change');
  await page.getByRole('button', { name: 'Reset offsets to 5 s' }).click();
  await step();
  await narrated("analytics's offsets are reset to the first record appended at or after 5000 ms");
  const lines = await narration(page);
  assert.ok(!lines.some((l) => l.startsWith("search's offsets are reset")), 'search was left alone');
  await screenshot(page, 'delivery-reset-analytics');
  assertQuiet(visit);
  await page.close();
});

test('with auto.offset.reset=none, the narration says why a partition stopped', { timeout: 120_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/delivery?preset=analytics-falls-behind-retention`);
  const { page } = visit;
  await waitForApp(page);
  await page.selectOption('#knob-g1-offset-reset', 'none');
  await page.waitForFunction(() => location.hash.includes('?s=2.'));
  await playPast(page, 50_000);
  const lines = await narration(page);
  assert.ok(
    lines.some((l) => /^analytics\/c1: p\d's position \d+ is below the log start \d+ .*auto\.offset\.reset=none.*OffsetOutOfRangeException/.test(l)),
    lines.slice(0, 8).join('\n'),
  );
  assertQuiet(visit);
  await page.close();
});

test('the counters under the diagram have a space of their own', { timeout: 60_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/delivery`);
  const { page } = visit;
  await waitForApp(page);
  const gaps = await page.evaluate(() => {
    const diagram = document.querySelector('svg.diagram').getBoundingClientRect();
    const counters = document.querySelector('.run > .counters');
    const produced = [...counters.querySelectorAll('.counter')]
      .find((c) => c.textContent.includes('records produced'))
      .getBoundingClientRect();
    return { counters: counters.getBoundingClientRect().top - diagram.bottom, produced: produced.top - diagram.bottom };
  });
  // One step of the 8 px grid at least: clear of the diagram's border, not sitting on it.
  assert.ok(gaps.produced >= 8, `"records produced" is ${gaps.produced} px below the diagram`);
  assert.ok(gaps.counters >= 8, `the counters are ${gaps.counters} px below the diagram`);
  assertQuiet(visit);
  await page.close();
});
