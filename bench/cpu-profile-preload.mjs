/**
 * Preload for `npm run bench:web -- --cpu-prof DIR` (`--cpu-prof` is refused in NODE_OPTIONS): starts V8's
 * sampling profiler in the product process and writes DIR/web-<pid>.cpuprofile when it exits (Chrome
 * DevTools / speedscope read it). DIR comes from BENCH_CPU_PROF_DIR.
 */
import { writeFileSync } from "node:fs";
import process from "node:process";
import { Session } from "node:inspector";
import path from "node:path";

const dir = process.env.BENCH_CPU_PROF_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.setSamplingInterval", { interval: 500 });
  session.post("Profiler.start");
  process.on("exit", () => {
    // The in-process session answers synchronously, so the profile is written before the exit completes.
    session.post("Profiler.stop", (err, res) => {
      if (!err) writeFileSync(path.join(dir, `web-${process.pid}.cpuprofile`), JSON.stringify(res.profile));
    });
  });
}
