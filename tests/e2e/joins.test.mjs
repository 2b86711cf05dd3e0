// The joins family, built on the shared lesson shell: each preset opened by its link and
// played to its end shows the figure that proves its point, in the state the lesson reports
// (the names `streamlab simulate` prints) and on the page under the same name.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshot } from './harness.mjs';
import { assertQuiet, presetFiguresAtEnd, useSiteAndBrowser } from './lesson-helpers.mjs';

const env = useSiteAndBrowser();

/** Plays `lesson` at `preset` to its end and returns its figures. */
const figuresAtEnd = (page, lesson, preset) => presetFiguresAtEnd(env, page, lesson, preset);

/** The number the page shows under `name` (a dotted name for a group's figure). */
const shown = async (page, name) => Number(await page.locator(`[data-figure="${name}"]`).innerText());

test('searches and clicks: a left interval join emits unclicked searches; a late click is lost', { timeout: 150_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/`);
  const { page } = visit;
  const f = await figuresAtEnd(page, 'stream-joins', 'search-click-join');
  assert.ok(f.unclicked > 0, JSON.stringify(f));
  assert.ok(f.ctr > 0 && f.ctr < 1);
  assert.equal(await shown(page, 'unclicked'), f.unclicked);
  assert.equal(await shown(page, 'ctr'), f.ctr);
  assert.ok(await page.locator('.j-mark.matched').count() > 0);
  await screenshot(page, 'joins-search-click');
  const late = await figuresAtEnd(page, 'stream-joins', 'late-click-lost');
  assert.ok(late.lost_clicks > 0, JSON.stringify(late));
  assert.equal(await shown(page, 'lost_clicks'), late.lost_clicks);
  assertQuiet(visit);
  await page.close();
});

test('enrichment: processing time differs between interleavings, event time does not; the view equals the batch join', { timeout: 150_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/`);
  const { page } = visit;
  const f = await figuresAtEnd(page, 'stream-joins', 'enrichment-processing-vs-event-time');
  assert.ok(f.processing_time.differing_enrichments > 0, JSON.stringify(f));
  assert.equal(f.event_time.differing_enrichments, 0);
  assert.equal(await shown(page, 'processing_time.differing_enrichments'), f.processing_time.differing_enrichments);
  assert.equal(await shown(page, 'event_time.differing_enrichments'), 0);
  await screenshot(page, 'joins-enrichment');
  const view = await figuresAtEnd(page, 'stream-joins', 'materialized-view-join');
  assert.equal(view.view_mismatches, 0, JSON.stringify(view));
  assert.ok(view.view_checks > 0);
  assert.equal(await shown(page, 'view_mismatches'), 0);
  await screenshot(page, 'joins-view');
  assertQuiet(visit);
  await page.close();
});

test('top-K: the merge keyed by user misses posts, keyed by post it is exact; the sketch stays within its bound', { timeout: 150_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/`);
  const { page } = visit;
  const f = await figuresAtEnd(page, 'top-k', 'topk-wrong-merge');
  assert.ok(f.keyed_by_user.recall_at_k < 1, JSON.stringify(f));
  assert.equal(f.keyed_by_item.recall_at_k, 1);
  assert.equal(await shown(page, 'keyed_by_user.recall_at_k'), f.keyed_by_user.recall_at_k);
  await screenshot(page, 'joins-topk');
  const sketch = await figuresAtEnd(page, 'top-k', 'count-min-sketch');
  assert.equal(sketch.sketch.underestimates, 0, JSON.stringify(sketch));
  assert.ok(sketch.sketch.max_overcount <= sketch.sketch.overcount_bound);
  assert.ok(sketch.sketch.state_bytes < sketch.exact.state_bytes);
  assert.equal(await shown(page, 'sketch.max_overcount'), sketch.sketch.max_overcount);
  assert.equal(await shown(page, 'sketch.state_bytes'), sketch.sketch.state_bytes);
  assertQuiet(visit);
  await page.close();
});
