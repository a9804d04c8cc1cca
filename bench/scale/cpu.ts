// CPU samples for `npm run bench -- scale`: where the time of each 5 s of the run went, so that the
// p99 of a window can be read against how busy the processes and the machine were in it.
import { readFileSync } from 'node:fs';

/** A cumulative CPU reading (ms) at a wall-clock moment (epoch ms). */
export interface CpuSample {
  at: number;
  ms: number;
}

/** This process's CPU time, sampled every `everyMs` until the returned stop is called. */
export function sampleProcessCpu(everyMs = 250): { samples: CpuSample[]; stop(): void } {
  return sampleEvery(everyMs, () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  });
}

/** The whole machine's busy CPU time (every process, /proc/stat; empty off Linux). */
export function sampleMachineCpu(everyMs = 250): { samples: CpuSample[]; stop(): void } {
  return sampleEvery(everyMs, () => {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
    const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number) as number[];
    // USER_HZ is 100 on Linux: one tick is 10 ms.
    return (user! + nice! + system! + irq! + softirq! + steal!) * 10;
  });
}

function sampleEvery(everyMs: number, read: () => number): { samples: CpuSample[]; stop(): void } {
  const samples: CpuSample[] = [];
  const take = () => {
    try {
      samples.push({ at: Date.now(), ms: read() });
    } catch {
      // no /proc: no samples
    }
  };
  take();
  const timer = setInterval(take, everyMs);
  timer.unref?.();
  return { samples, stop: () => (take(), clearInterval(timer)) };
}

/** Cores busy on average in [from, to) (epoch ms), from cumulative samples; NaN without samples there. */
export function coresBetween(samples: CpuSample[], from: number, to: number): number {
  const at = (t: number) => {
    // The cumulative reading at t, linear between the samples around it.
    let i = samples.findIndex((s) => s.at >= t);
    if (i === -1) i = samples.length - 1;
    if (i <= 0) return samples[0]?.ms ?? NaN;
    const a = samples[i - 1]!;
    const b = samples[i]!;
    return a.ms + (b.ms - a.ms) * Math.min(1, Math.max(0, (t - a.at) / Math.max(1, b.at - a.at)));
  };
  return (at(to) - at(from)) / (to - from);
}
