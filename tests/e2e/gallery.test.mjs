// The home page: the bare address shows every lesson as a card grouped by theme, each card
// opens its lesson, the header leads back, and the gallery looks right in every theme and on a
// phone. The lesson list is read from the header's navigation, which the app builds from the
// same registry, so a lesson missing from the gallery fails here. Lesson cards carry their
// slug; the misconception cards below them (misconceptions.test.mjs) share the look but not
// the attribute.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshot, waitForApp } from './harness.mjs';
import { assertQuiet, useSiteAndBrowser } from './lesson-helpers.mjs';

const env = useSiteAndBrowser();

/** Slugs of the lessons the header lists (every link but "All lessons"). */
const headerSlugs = (page) =>
  page.$$eval('.site-header nav a', (links) =>
    links.map((a) => a.getAttribute('href').replace('#/', '')).filter((slug) => slug !== ''));

test('the bare address and #/ show a card for every lesson, grouped by theme', { timeout: 90_000 }, async () => {
  for (const address of [env.site.url, `${env.site.url}#/`]) {
    const visit = await openPage(env.browser, address);
    const { page } = visit;
    await waitForApp(page);
    await page.locator('main.gallery').waitFor();
    const slugs = await headerSlugs(page);
    assert.ok(slugs.length >= 4, `the header lists the lessons: ${slugs}`);
    const cards = await page.$$eval('article.card[data-slug]', (all) => all.map((c) => c.dataset.slug));
    assert.deepEqual([...cards].sort(), [...slugs].sort(), 'one card per lesson, no more');
    const themes = await page.$$eval('section.theme:not(.misconceptions) h2', (hs) => hs.map((h) => h.textContent));
    assert.deepEqual(themes, ['The log', 'Failure', 'Time', 'Practice']);
    for (const card of await page.locator('article.card[data-slug]').all()) {
      assert.equal(await card.locator('svg.thumbnail').count(), 1, 'a thumbnail');
      assert.notEqual((await card.locator('.card-question').innerText()).trim(), '', 'a question');
      const claims = await card.locator('.card-claims dd').allInnerTexts();
      assert.equal(claims.length, 3, 'guarantee, what a node can know, how it fails');
      assert.ok(claims.every((c) => c.trim().length > 10), `claims have words: ${claims}`);
    }
    // The delivery card previews its own lesson: committed and processed marks, a dead-letter box.
    const delivery = page.locator('article.card[data-slug="delivery"] svg.thumbnail');
    assert.equal(await delivery.locator('.thumb-dlq').count(), 1, 'a dead-letter box');
    assert.equal(await delivery.locator('.mark-committed').count(), await delivery.locator('.mark-processed').count());
    assert.ok((await delivery.locator('.mark-committed').count()) > 0, 'committed offsets drawn');
    assertQuiet(visit);
    await page.close();
  }
});

test('each card opens its lesson, and the header leads back to the gallery', { timeout: 180_000 }, async () => {
  const visit = await openPage(env.browser, env.site.url);
  const { page } = visit;
  await waitForApp(page);
  const slugs = await page.$$eval('article.card[data-slug]', (all) => all.map((c) => c.dataset.slug));
  for (const slug of slugs) {
    const card = page.locator(`article.card[data-slug="${slug}"]`);
    const title = (await card.locator('h3').innerText()).trim();
    // The whole card is the link: click the middle of its thumbnail, not the title.
    await card.scrollIntoViewIfNeeded();
    const box = await card.locator('svg.thumbnail').boundingBox();
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForFunction((s) => location.hash.startsWith(`#/${s}`), slug);
    await page.locator('main.lesson').waitFor();
    assert.equal((await page.locator('.site-header nav a.current').innerText()).trim(), title);
    await page.locator('.site-header a.brand').click();
    await page.locator('main.gallery').waitFor();
  }
  assertQuiet(visit);
  await page.close();
});

/** Where the lesson's stage, side panel and question are: page coordinates, and the question's
 * place in the window. */
const lessonLayout = (page) =>
  page.evaluate(() => {
    const box = (selector) => {
      const r = document.querySelector(selector).getBoundingClientRect();
      return { top: r.top + window.scrollY, left: r.left, right: r.right };
    };
    const question = document.querySelector('.question').getBoundingClientRect();
    return {
      stage: box('.stage'),
      side: box('aside.side'),
      questionInView: question.top >= 0 && question.bottom <= window.innerHeight,
    };
  });

test('a lesson opened from a card low in the gallery starts at its top, the side panel beside the stage', { timeout: 180_000 }, async () => {
  const visit = await openPage(env.browser, env.site.url);
  const { page } = visit;
  await waitForApp(page);
  const slugs = await page.$$eval('article.card[data-slug]', (all) => all.map((c) => c.dataset.slug));
  for (const slug of slugs) {
    // Scrolled down to the card, as a visitor would be to click it.
    const card = page.locator(`article.card[data-slug="${slug}"]`);
    await card.scrollIntoViewIfNeeded();
    await card.locator('.card-link').click();
    await page.waitForFunction((s) => location.hash.startsWith(`#/${s}`), slug);
    await page.locator('main.lesson aside.side').waitFor();
    const { stage, side, questionInView } = await lessonLayout(page);
    assert.ok(questionInView, `${slug}: the lesson's question is in view`);
    assert.ok(side.left >= stage.right, `${slug}: the side panel is beside the stage`);
    assert.ok(Math.abs(side.top - stage.top) <= 8, `${slug}: the side panel starts ${side.top - stage.top} px below the stage's top`);
    if (slug === 'delivery') await screenshot(page, 'delivery-from-gallery');
    await page.locator('.site-header a.brand').click();
    await page.locator('main.gallery').waitFor();
  }
  assertQuiet(visit);
  await page.close();
});

test('until a theme is picked, the site follows the system\'s dark setting', { timeout: 60_000 }, async () => {
  const visit = await openPage(env.browser, env.site.url, {
    setUp: async (page) => {
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.addInitScript(() => localStorage.removeItem('streamlab-theme'));
    },
  });
  const { page } = visit;
  await waitForApp(page);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  assert.equal(await page.locator('.theme-switcher select').inputValue(), 'system');
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.notEqual(background, 'rgb(255, 255, 255)', 'a dark page');
  assertQuiet(visit);
  await page.close();
});

test('the gallery in each theme and on a phone', { timeout: 120_000 }, async () => {
  for (const theme of ['light', 'dark', 'projector']) {
    const visit = await openPage(env.browser, env.site.url);
    const { page } = visit;
    await waitForApp(page);
    await page.locator('.theme-switcher select').selectOption(theme);
    await page.waitForFunction((t) => document.documentElement.dataset.theme === t, theme);
    await screenshot(page, `gallery-${theme}`);
    // The choice is remembered for the next visit.
    await page.reload();
    await waitForApp(page);
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), theme);
    assert.equal(await page.locator('.theme-switcher select').inputValue(), theme);
    assertQuiet(visit);
    await page.close();
  }
  const visit = await openPage(env.browser, env.site.url);
  const { page } = visit;
  await page.setViewportSize({ width: 390, height: 844 });
  await waitForApp(page);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `nothing wider than a phone: ${overflow}px too wide`);
  await screenshot(page, 'gallery-phone');
  await page.close();
});
