// Keyboard, screen readers, reduced motion, themes and phones: the `?` sheet lists the
// shortcuts and the keys work, every control has a name and is reachable with Tab, the
// narration is announced, `prefers-reduced-motion` jumps between states, each theme reaches
// the canvas charts, and a lesson fits a phone's width.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshot, waitForApp } from './harness.mjs';
import { assertQuiet, useSiteAndBrowser } from './lesson-helpers.mjs';

const env = useSiteAndBrowser();
const lessons = ['partitions', 'rebalances', 'which-clock', 'watermarks', 'windows', 'delivery'];

async function openLesson(slug, { reducedMotion, width } = {}) {
  const visit = await openPage(env.browser, `${env.site.url}#/${slug}`, {
    setUp: async (page) => {
      if (reducedMotion) await page.emulateMedia({ reducedMotion });
      if (width) await page.setViewportSize({ width, height: 844 });
    },
  });
  await waitForApp(visit.page);
  await visit.page.locator('main.lesson').waitFor();
  return visit;
}

test('? opens the shortcut sheet, Esc closes it, and Space and → drive the run', { timeout: 90_000 }, async () => {
  const visit = await openLesson('partitions');
  const { page } = visit;
  await page.locator('.question').click();
  await page.keyboard.press('?');
  const sheet = page.locator('[role="dialog"].shortcut-sheet');
  await sheet.waitFor();
  const keys = await sheet.locator('kbd').allInnerTexts();
  for (const key of ['Space', '→', '↑', '↓', 'R', '?', 'Esc']) assert.ok(keys.includes(key), `lists ${key}: ${keys}`);
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Close', 'focus moves into the sheet');
  await page.keyboard.press('Escape');
  await sheet.waitFor({ state: 'detached' });
  await page.keyboard.press('?');
  await sheet.waitFor();
  await page.keyboard.press('?');
  await sheet.waitFor({ state: 'detached' });
  // Without a keyboard, the header's button opens the same list.
  await page.locator('.site-header button.keys-button').click();
  await sheet.waitFor();
  await sheet.locator('button', { hasText: 'Close' }).click();
  await sheet.waitFor({ state: 'detached' });

  await page.locator('.question').click();
  await page.keyboard.press('Space');
  // Space paused (Yew handles the key after it is dispatched, so wait for the button to say so).
  await page.locator('.transport button.primary', { hasText: 'Play' }).waitFor();
  const before = await page.evaluate(() => window.__streamlab.simMs());
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((t) => window.__streamlab.simMs() === t + 100, before);
  assertQuiet(visit);
  await page.close();
});

test('every control has a name and Tab reaches the transport, the knobs and the tools', { timeout: 120_000 }, async () => {
  for (const slug of lessons) {
    const visit = await openLesson(slug);
    const { page } = visit;
    const unnamed = await page.evaluate(() => {
      const nameOf = (el) => {
        const labelled = el.getAttribute('aria-labelledby');
        return (
          el.getAttribute('aria-label') ||
          (labelled && document.getElementById(labelled)?.textContent) ||
          [...(el.labels ?? [])].map((l) => l.textContent).join(' ') ||
          (['BUTTON', 'A', 'SUMMARY'].includes(el.tagName) ? el.textContent : '') ||
          el.getAttribute('title') ||
          ''
        ).trim();
      };
      return [...document.querySelectorAll('button, input, select, textarea, a[href], summary')]
        .filter((el) => el.getClientRects().length > 0)
        .filter((el) => nameOf(el) === '')
        .map((el) => el.outerHTML.slice(0, 120));
    });
    assert.deepEqual(unnamed, [], `${slug}: controls without a name`);
    const reached = new Set();
    for (let i = 0; i < 200; i += 1) {
      await page.keyboard.press('Tab');
      reached.add(await page.evaluate(() => {
        const el = document.activeElement;
        return el.closest('.transport') ? 'transport' : el.closest('.knobs') ? 'knobs' : el.closest('.tools') ? 'tools' : el.closest('.site-header') ? 'header' : 'other';
      }));
    }
    for (const part of ['header', 'transport', 'knobs', 'tools']) assert.ok(reached.has(part), `${slug}: Tab reaches the ${part}`);
    assertQuiet(visit);
    await page.close();
  }
});

test('the newest narration line is in a polite live region', { timeout: 90_000 }, async () => {
  const visit = await openLesson('rebalances');
  const { page } = visit;
  await page.waitForFunction(() => document.querySelectorAll('.narration li').length > 0);
  const region = page.locator('.narration [aria-live="polite"]');
  const newest = (await page.locator('.narration li .text').first().textContent()).trim();
  assert.equal((await region.innerText()).trim(), newest);
  await page.close();
});

// How long a counter's flash lasts once it is told to flash (the tint behind the number is its
// `::before`, so the compositor can play it).
function flashSeconds(page) {
  return page.evaluate(() => {
    const el = document.querySelector('.counter-value');
    el.classList.add('flash');
    return parseFloat(getComputedStyle(el, '::before').animationDuration);
  });
}

test('with reduced motion the diagram jumps between states and nothing flashes', { timeout: 90_000 }, async () => {
  const moving = await openLesson('partitions');
  await moving.page.waitForFunction(() => window.__streamlab.simMs() > 1000);
  assert.ok((await moving.page.locator('svg.diagram g.fetches').count()) > 0, 'normally fetches travel');
  assert.ok((await flashSeconds(moving.page)) > 0.1, 'normally a new alert flashes');
  await moving.page.close();

  const visit = await openLesson('partitions', { reducedMotion: 'reduce' });
  const { page } = visit;
  for (let i = 0; i < 10; i += 1) {
    await page.waitForTimeout(200);
    const travelling = await page.locator('svg.diagram g.fetches, svg.diagram g.in-flight').count();
    assert.equal(travelling, 0, 'no record or fetch is drawn in transit');
  }
  assert.ok((await page.evaluate(() => window.__streamlab.simMs())) > 1000, 'the run still advances');
  const flash = await flashSeconds(page);
  assert.ok(flash < 0.001, `counters do not flash: ${flash}s`);
  await screenshot(page, 'lesson-reduced-motion');
  assertQuiet(visit);
  await page.close();
});

test('each theme reaches the canvas charts and SVG pictures, and every lesson fits a phone', { timeout: 300_000 }, async () => {
  for (const theme of ['light', 'dark', 'projector']) {
    for (const slug of ['rebalances', 'which-clock']) {
      const visit = await openPage(env.browser, `${env.site.url}#/${slug}`, {
        setUp: (page) => page.addInitScript((t) => localStorage.setItem('streamlab-theme', t), theme),
      });
      const { page } = visit;
      await waitForApp(page);
      const canvas = slug === 'rebalances' ? '.charts canvas' : '.et-chart canvas';
      await page.waitForTimeout(1500);
      const [paper, corner] = await page.evaluate((selector) => {
        const hex = getComputedStyle(document.documentElement).getPropertyValue('--paper').trim();
        const c = document.querySelector(selector);
        const [r, g, b] = c.getContext('2d').getImageData(1, 1, 1, 1).data;
        return [hex, `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`];
      }, canvas);
      assert.equal(corner, paper, `${theme} ${slug}: the chart is painted on the theme's paper`);
      await screenshot(page, `lesson-${slug}-${theme}`);
      assertQuiet(visit);
      await page.close();
    }
    // The SVG pictures and their controls take the theme's colours, not the browser's.
    for (const [slug, selector, variable, property] of [
      ['windows', '.wt-chart svg', '--paper', 'backgroundColor'],
      ['windows', '.wt-summary', '--ink', 'fill'],
      ['delivery', '.delivery-actions button', '--paper-raised', 'backgroundColor'],
      ['delivery', '.delivery-actions button:not(.danger)', '--ink', 'color'],
    ]) {
      const visit = await openPage(env.browser, `${env.site.url}#/${slug}`, {
        setUp: (page) => page.addInitScript((t) => localStorage.setItem('streamlab-theme', t), theme),
      });
      const { page } = visit;
      await waitForApp(page);
      await page.locator(selector).first().waitFor();
      const [wanted, actual] = await page.evaluate(([sel, name, prop]) => {
        const probe = document.createElement('span');
        probe.style.color = `var(${name})`;
        document.body.append(probe);
        const colour = getComputedStyle(probe).color;
        probe.remove();
        return [colour, getComputedStyle(document.querySelector(sel))[prop]];
      }, [selector, variable, property]);
      assert.equal(actual, wanted, `${theme} ${slug}: ${selector} ${property} follows ${variable}`);
      await screenshot(page, `lesson-${slug}-${theme}`);
      assertQuiet(visit);
      await page.close();
    }
  }
  for (const slug of lessons) {
    const visit = await openLesson(slug, { width: 390 });
    const overflow = await visit.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${slug} fits 390 px: ${overflow}px too wide`);
    await screenshot(visit.page, `lesson-${slug}-phone`);
    await visit.page.close();
  }
});
