// Turning a lesson's knobs from a benchmark: the first number knob a page shows, values to
// turn it to, and turning it while timing each new picture. Shared by the browser benchmark, the
// profiler and the rendering trace, so all three turn knobs the same way.

import { launchBrowser, openPage, serveDist, waitForApp, waitForSettledClock } from '../e2e/harness.mjs';

// The first knob that takes an exact number, as the benchmarks turn it, or null.
export async function firstNumberKnob(page) {
  return page.evaluate(() => {
    const input = document.querySelector('input.knob-exact[type=number]:not([disabled])');
    if (!input) return null;
    return {
      id: input.id,
      value: Number(input.value),
      min: Number(input.min || -Infinity),
      max: Number(input.max || Infinity),
      step: Number(input.step) || 1,
    };
  });
}

function inRange(knob, value) {
  return value >= knob.min && value <= knob.max;
}

// `count` settings three steps apart, upwards while the range allows, then downwards (fewer
// where the knob's range is too short): values the page has not simulated yet.
export function freshValues(knob, count) {
  const values = [];
  for (const direction of [1, -1]) {
    for (let k = 1; values.length < count; k += 1) {
      const value = knob.value + direction * 3 * k * knob.step;
      if (!inRange(knob, value)) break;
      values.push(value);
    }
  }
  return values;
}

// Six single steps from the current setting, turning back at the end of the range.
export function nextSteps(knob) {
  const values = [];
  let value = knob.value;
  let direction = inRange(knob, value + knob.step) ? 1 : -1;
  while (values.length < 6) {
    if (!inRange(knob, value + direction * knob.step)) direction = -direction;
    value += direction * knob.step;
    values.push(value);
  }
  return values;
}

// Turns `knob` to each of `values`, the next change waiting for the last one's picture (a run
// longer than a frame is built in slices); with `afterIdle`, also for the page to have prepared
// the steps around it. Returns the knob-to-picture and knob-to-paint figures of these changes.
export async function changeKnob(page, knob, values, afterIdle) {
  await page.evaluate(() => window.__streamlab.resetStats());
  for (const value of values) {
    if (afterIdle) {
      await page.waitForFunction(() => window.__streamlab.nearbyPending() === 0, undefined, { timeout: 60000 });
    }
    const shown = await page.evaluate(() => window.__streamlab.knobToPictureStats().count);
    // Numbers written as the knob's step writes them (no binary-fraction tails).
    await page.fill(`#${knob.id}`, String(Number(value.toFixed(6))));
    await page.dispatchEvent(`#${knob.id}`, 'change');
    await page.waitForFunction((n) => window.__streamlab.knobToPictureStats().count > n, shown, { timeout: 60000 });
    await page.waitForTimeout(250);
  }
  return page.evaluate(() => ({
    picture: window.__streamlab.knobToPictureStats(),
    paint: window.__streamlab.knobToPaintStats(),
  }));
}

// Serves the site in `root`, opens `lesson` at ten simulated minutes and turns its first number
// knob to `count` fresh values while a recorder watches through Chromium's DevTools protocol:
// `recorder.start(cdp)` before the first change, `recorder.stop(cdp)` after the last picture,
// whose answer this returns with the number of settings. What the profiler and the rendering
// trace share; `tool` names the lines it prints.
export async function recordFreshSettings(root, lesson, count, tool, recorder) {
  const site = await serveDist({ root });
  const browser = await launchBrowser();
  try {
    const { page, knob, values } = await openAtTenMinutes(browser, site.url, lesson, count);
    console.log(`${tool} ${lesson}: knob ${knob.id}, ${values.length} fresh settings at 10 min`);
    const cdp = await page.context().newCDPSession(page);
    await recorder.start(cdp);
    const { picture } = await changeKnob(page, knob, values, false);
    const recorded = await recorder.stop(cdp);
    console.log(`${tool} knob_to_picture_ms: p50 ${picture.p50.toFixed(1)}, p95 ${picture.p95.toFixed(1)}`);
    return { recorded, settings: values.length };
  } finally {
    await browser.close();
    await site.close();
  }
}

// Opens `lesson` of the site at `siteUrl` at ten simulated minutes and reads its first number
// knob and `count` fresh values for it.
async function openAtTenMinutes(browser, siteUrl, lesson, count) {
  const { page } = await openPage(browser, `${siteUrl}#/${lesson}?t=600000`);
  await waitForApp(page);
  await refuseAnotherLesson(page, lesson);
  await waitForSettledClock(page);
  const knob = await firstNumberKnob(page);
  if (!knob) throw new Error(`lesson ${lesson} shows no knob that takes a number`);
  const values = freshValues(knob, count);
  if (values.length === 0) throw new Error(`${knob.id} has no value within its range to turn to`);
  return { page, knob, values };
}

// An address naming no lesson opens the first one with a message: measuring that would
// answer another question than the one asked.
async function refuseAnotherLesson(page, slug) {
  const alerts = await page.locator('.error-banner, [role="alert"]').allInnerTexts();
  const refused = alerts.find((text) => text.includes('no lesson called'));
  if (refused) throw new Error(`${slug}: ${refused.replace(/\s+/g, ' ').trim()}`);
}
