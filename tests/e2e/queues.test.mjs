// The queues family, built on the shared lesson shell: each preset opened by its link and
// played to its end shows the figure that proves its point, on the page and in the state the
// lesson reports (the names `streamlab simulate` prints).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshot } from './harness.mjs';
import { assertQuiet, presetFiguresAtEnd, useSiteAndBrowser } from './lesson-helpers.mjs';

const env = useSiteAndBrowser();

/** Opens `lesson` at `preset`, plays it to its end and returns its figures. */
const figuresAtEnd = (page, lesson, preset) => presetFiguresAtEnd(env, page, lesson, preset);

/** The number the page shows for `reader`'s `figure`. */
const shown = async (page, reader, figure) =>
  Number(await page.locator(`.q-reader.${reader} [data-figure="${figure}"]`).innerText());

test('the share group and the queue scale past the partitions and invert keys; the consumer group does neither', { timeout: 150_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/`);
  const { page } = visit;
  const f = await figuresAtEnd(page, 'queues', 'share-group-scales-past-partitions');
  assert.ok(f.share_group.throughput_per_s > f.consumer_group.throughput_per_s, JSON.stringify(f));
  assert.ok(f.share_group.order_inversions > 0);
  assert.equal(f.consumer_group.order_inversions, 0);
  assert.equal(await shown(page, 'share_group', 'order_inversions'), f.share_group.order_inversions);
  assert.equal(await shown(page, 'consumer_group', 'order_inversions'), 0);
  // Nine of the consumer group's twelve members have no partition to read.
  assert.equal(await page.locator('.q-reader.consumer_group .q-consumer.idle').count(), 9);
  await screenshot(page, 'queues-scale');
  assertQuiet(visit);
  await page.close();
});

test('a crash with prefetched messages: the queue redelivers them out of order; a late reader finds the log, not the queue', { timeout: 150_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/`);
  const { page } = visit;
  const crash = await figuresAtEnd(page, 'queues', 'queue-redelivery-reorders');
  assert.ok(crash.queue.redelivered > 0 && crash.queue.order_inversions > 0, JSON.stringify(crash.queue));
  assert.equal(crash.consumer_group.order_inversions, 0);
  const late = await figuresAtEnd(page, 'queues', 'late-reader-log-vs-queue');
  assert.ok(late.consumer_group.readable_history > 0, JSON.stringify(late));
  assert.equal(late.queue.readable_history, 0);
  assert.equal(await shown(page, 'queue', 'readable_history'), 0);
  const moved = await figuresAtEnd(page, 'queues', 'adding-partitions-moves-keys');
  assert.ok(Math.abs(moved.keys_moved_fraction - 0.5) < 0.1, `moved ${moved.keys_moved_fraction}`);
  assert.ok(moved.consumer_group.order_inversions > 0);
  assertQuiet(visit);
  await page.close();
});

test('backpressure: drop counts losses, the memory buffer dies with its process, block slows the producer, the log loses nothing', { timeout: 150_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/`);
  const { page } = visit;
  const f = await figuresAtEnd(page, 'backpressure', 'backpressure-drop-buffer-block');
  assert.ok(f.drop.dropped > 0, JSON.stringify(f));
  assert.ok(f.buffer.lost_on_crash > 0);
  assert.ok(f.block.producer_blocked_ms > 0);
  assert.equal(f.log.lost, 0);
  assert.match(await page.locator('tr[data-lane="drop"]').innerText(), new RegExp(`${f.drop.dropped} dropped`));
  assert.match(await page.locator('tr[data-lane="memory buffer"]').innerText(), /lost on a crash/);
  await screenshot(page, 'queues-backpressure');
  const direct = await figuresAtEnd(page, 'backpressure', 'direct-vs-broker');
  assert.ok(direct.direct.lost_while_down > 0);
  assert.equal(direct.broker.lost, 0);
  const kinesis = await figuresAtEnd(page, 'backpressure', 'kinesis-shard-limit');
  assert.ok(kinesis.kinesis.throttled > 0, JSON.stringify(kinesis));
  assertQuiet(visit);
  await page.close();
});
