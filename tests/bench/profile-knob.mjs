// Where a lesson's fresh knob settings spend their time, function by function, in Chromium.
// Opens one lesson of a built site at ten simulated minutes, starts Chromium's sampling
// profiler (every 100 µs), turns the lesson's first number knob to a dozen values never seen
// as the browser benchmark does (the first twelve of its fresh settings; each waits for its
// picture and a quarter second more, so the prepared next steps run too), and prints the busy
// time per setting by function, most first.
//
// A native profile misled more than once: wasm inlines differently, and a function that is
// cheap natively can be a call per record in the browser. This shows what the page runs.
//
// Run: cargo xtask profile LESSON (builds a copy of the site whose wasm keeps its function
// names, then runs this), or node tests/bench/profile-knob.mjs SITE_FOLDER LESSON on any build
// (the shipped site names its wasm functions only by number).

import { recordFreshSettings } from './knobs.mjs';

const [root, lesson = 'partitions'] = process.argv.slice(2);
const SETTINGS = 12;
const SAMPLING_INTERVAL_US = 100;
const SHOWN_FUNCTIONS = 40;

const { recorded: profile, settings } = await recordFreshSettings(root, lesson, SETTINGS, 'profile', {
  async start(cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_US });
    await cdp.send('Profiler.start');
  },
  async stop(cdp) {
    return (await cdp.send('Profiler.stop')).profile;
  },
});
printSelfTimes(profile, settings);

// Sums each function's own samples (not its callees') and prints ms per setting.
function printSelfTimes(profile, settings) {
  const sampleMs = (profile.endTime - profile.startTime) / profile.samples.length / 1000;
  const hits = new Map();
  for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  const selfMs = new Map();
  for (const node of profile.nodes) {
    const frame = node.callFrame;
    const name = frame.functionName || `(${frame.url.split('/').pop() || 'anonymous'})`;
    selfMs.set(name, (selfMs.get(name) ?? 0) + (hits.get(node.id) ?? 0) * sampleMs);
  }
  const busy = [...selfMs].filter(([name]) => name !== '(idle)' && name !== '(program)');
  const busyMs = busy.reduce((sum, [, ms]) => sum + ms, 0);
  console.log(`profile busy_ms_per_setting: ${(busyMs / settings).toFixed(1)}`);
  for (const [name, ms] of [...selfMs].sort((a, b) => b[1] - a[1]).slice(0, SHOWN_FUNCTIONS)) {
    console.log(`${(ms / settings).toFixed(2).padStart(8)} ms  ${name.slice(0, 160)}`);
  }
}
