// Preloaded with `node --require` into a benchmarked child: on exit (or SIGTERM), writes the CPU
// time the process used so far (user + system, ms) to $BENCH_CPU_FILE. On a shared, busy machine
// CPU time is a steadier figure than wall time, which includes waiting for a core.
const { writeFileSync } = require('node:fs')

const file = process.env.BENCH_CPU_FILE
if (file) {
  const report = () => {
    const { user, system } = process.cpuUsage()
    writeFileSync(file, String((user + system) / 1000))
  }
  process.on('exit', report)
  process.on('SIGTERM', () => {
    report()
    // A listener replaces the default "exit on SIGTERM": keep it when the program has none.
    if (process.listenerCount('SIGTERM') === 1) process.exit(143)
  })
}
