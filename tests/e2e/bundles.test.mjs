// The site is split into one WebAssembly bundle per lesson family (per lesson in the
// consumer-group family): opening a lesson downloads its bundle and no other, following a link
// to another bundle's lesson loads that bundle (Back too), the gallery is the gallery bundle's
// alone, and an address naming no lesson still opens the first lesson with a message. What a
// bundle weighs is `cargo xtask dist`'s report; this checks what a visitor gets and sees.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, waitForApp } from './harness.mjs';
import { assertQuiet, useSiteAndBrowser } from './lesson-helpers.mjs';

const env = useSiteAndBrowser();

/** The bundles (`<name>_bg.wasm`) the page has downloaded so far. */
const bundlesLoaded = (visit) =>
  visit.responses
    .map((r) => new URL(r.url).pathname.split('/').pop())
    .filter((file) => file.endsWith('_bg.wasm'))
    .map((file) => file.replace('_bg.wasm', ''));

/** Waits until the lesson `slug`'s page is on screen and the host API says so. */
async function lessonShown(page, slug) {
  await page.waitForFunction((s) => window.streamlab?.get()?.lesson === s, slug, { timeout: 30_000 });
  await waitForApp(page);
}

test('each address downloads one bundle: the gallery alone, or the one carrying its lesson', { timeout: 120_000 }, async () => {
  const expected = [
    ['', 'gallery'],
    ['#/partitions', 'partitions'],
    ['#/delivery', 'delivery'],
    ['#/windows', 'eventtime'],
    ['#/stream-joins', 'joins'],
    ['#/replication', 'replication'],
  ];
  for (const [fragment, bundle] of expected) {
    const visit = await openPage(env.browser, `${env.site.url}${fragment}`);
    await waitForApp(visit.page);
    assert.deepEqual(bundlesLoaded(visit), [bundle], `${fragment || 'the bare address'}`);
    assertQuiet(visit);
    await visit.page.close();
  }
});

test('links between families load the other bundle, and Back returns to the first lesson', { timeout: 120_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/rebalances`);
  const { page } = visit;
  await lessonShown(page, 'rebalances');
  // The header's link to another family's lesson.
  await page.click('.site-header nav a[href="#/watermarks"]');
  await lessonShown(page, 'watermarks');
  assert.match(await page.locator('.question').innerText(), /window/i);
  // A lesson of the same bundle opens without a new download.
  const before = bundlesLoaded(visit).length;
  await page.click('.site-header nav a[href="#/windows"]');
  await lessonShown(page, 'windows');
  assert.equal(bundlesLoaded(visit).length, before, 'no download within the eventtime family');
  await page.goBack();
  await lessonShown(page, 'watermarks');
  await page.goBack();
  await lessonShown(page, 'rebalances');
  assert.match(await page.locator('.question').innerText(), /rebalanc|restart|member/i);
  assert.deepEqual(bundlesLoaded(visit), ['rebalances', 'eventtime', 'rebalances']);
  assertQuiet(visit);
  await page.close();
});

test('the header leads from a lesson to the gallery, which only the gallery bundle carries, and Back returns', { timeout: 90_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/checkpoints`);
  const { page } = visit;
  await lessonShown(page, 'checkpoints');
  await page.locator('.site-header a.brand').click();
  await page.locator('main.gallery article.card[data-slug="checkpoints"]').waitFor();
  assert.ok((await page.locator('main.gallery article.card').count()) >= 16, 'every lesson has its card');
  await page.goBack();
  await lessonShown(page, 'checkpoints');
  assert.deepEqual(bundlesLoaded(visit), ['exactly_once', 'gallery', 'exactly_once']);
  assertQuiet(visit);
  await page.close();
});

test('an address naming no lesson opens the first lesson with a message, from any bundle', { timeout: 90_000 }, async () => {
  const visit = await openPage(env.browser, `${env.site.url}#/windows`);
  const { page } = visit;
  await lessonShown(page, 'windows');
  await page.evaluate(() => { location.hash = '#/no-such-lesson'; });
  await lessonShown(page, 'partitions');
  assert.match(await page.locator('.error-banner, [role="alert"]').first().innerText(), /no lesson called "no-such-lesson"/);
  await page.close();
});

test('a link to another lesson\'s preset opens that preset in its own lesson and bundle', { timeout: 90_000 }, async () => {
  // Each consumer-group bundle carries only its own lesson's presets; the storm is the
  // rebalances lesson's.
  const visit = await openPage(env.browser, `${env.site.url}#/partitions?preset=rebalance-storm`);
  const { page } = visit;
  await lessonShown(page, 'rebalances');
  assert.equal(await page.locator('.error-banner, [role="alert"]').count(), 0, 'no complaint about the preset');
  assert.deepEqual(bundlesLoaded(visit), ['partitions', 'rebalances']);
  assertQuiet(visit);
  const sentOn = await page.evaluate(() => window.streamlab.get().link);
  await page.close();
  // The same scenario as the preset opened from its own lesson's address.
  const direct = await openPage(env.browser, `${env.site.url}#/rebalances?preset=rebalance-storm`);
  await lessonShown(direct.page, 'rebalances');
  assert.equal(sentOn, await direct.page.evaluate(() => window.streamlab.get().link));
  await direct.page.close();
});
