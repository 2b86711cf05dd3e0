// Where a lesson's fresh knob settings spend the page's rendering time in Chromium: what is
// painted, what invalidates layout and style, and the main thread's time by trace event.
// Opens one lesson of a built site at ten simulated minutes, records a Chromium trace (CDP
// `Tracing`) while its first number knob takes the same dozen fresh values as the profiler, and
// prints per setting:
// - paints by the node painted (a `#document` paint repaints the whole page);
// - layout and style invalidations by node and reason (`Animation` names a CSS animation that
//   runs on the main thread);
// - the main thread's time by trace event, nested events each counted.
// The sampling profiler (profile-knob.mjs) names the functions; this names what they make the
// browser do afterwards.
//
// Run: node tests/bench/trace-knob.mjs SITE_FOLDER LESSON [TRACE.json] (the raw events are
// written to TRACE.json when given, for a closer look).

import { writeFile } from 'node:fs/promises';
import { recordFreshSettings } from './knobs.mjs';

const [root, lesson = 'partitions', rawOut] = process.argv.slice(2);
const SETTINGS = 12;
const SHOWN_ROWS = 20;
const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.invalidationTracking',
  'blink',
  'v8',
].join(',');

const events = [];
let complete;
const { settings } = await recordFreshSettings(root, lesson, SETTINGS, 'trace', {
  async start(cdp) {
    cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
    complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
  },
  async stop(cdp) {
    await cdp.send('Tracing.end');
    await complete;
  },
});
if (rawOut) await writeFile(rawOut, JSON.stringify(events));
summarise(events, settings);

function summarise(events, settings) {
  const paints = tally();
  const invalidations = tally();
  const mainThread = tally();
  // Timers fire on the page's main thread: its thread id picks that thread's events.
  const rendererMain = events.find((e) => e.name === 'TimerFire');
  for (const e of events) {
    const data = e.args?.data ?? {};
    if (e.name === 'Paint' && e.dur) paints.add(data.nodeName ?? '?', e.dur / 1000);
    if (e.name.endsWith('InvalidationTracking')) {
      invalidations.add(`${e.name} ${data.nodeName ?? ''} ${data.reason ?? ''}`);
    }
    if (e.ph === 'X' && e.dur && e.tid === rendererMain?.tid) mainThread.add(e.name, e.dur / 1000);
  }
  paints.print('paints: count and ms per setting, by node', settings);
  invalidations.print('invalidations: count per setting, by node and reason', settings);
  mainThread.print('main thread: count and ms per setting, by event', settings);
}

// Counts, and milliseconds when events have a duration, by key (a function, not a class: the
// script's top-level await runs before a class declared below it exists).
function tally() {
  const rows = new Map();
  return {
    add(key, ms = 0) {
      const row = rows.get(key) ?? { count: 0, ms: 0 };
      row.count += 1;
      row.ms += ms;
      rows.set(key, row);
    },
    print(title, settings) {
      console.log(`-- ${title}`);
      const byWeight = [...rows].sort((a, b) => b[1].ms - a[1].ms || b[1].count - a[1].count);
      const timed = byWeight.some(([, { ms }]) => ms > 0);
      for (const [key, { count, ms }] of byWeight.slice(0, SHOWN_ROWS)) {
        const msColumn = timed ? ` ${(ms / settings).toFixed(2).padStart(8)}` : '';
        const perSetting = `${(count / settings).toFixed(1).padStart(7)}${msColumn}`;
        console.log(`${perSetting}  ${key.slice(0, 140)}`);
      }
    },
  };
}
