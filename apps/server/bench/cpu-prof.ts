import path from 'node:path';

/** BENCH_CPU_PROF=dir: each bench process writes a V8 CPU profile there (open in Chrome's DevTools). */
export const cpuProf = (name: string) =>
  process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.join(process.env.BENCH_CPU_PROF, name)}`] : [];
