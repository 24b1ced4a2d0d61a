// Preloaded (`node --import`) into a process the benchmarks measure from outside: at exit it writes
// the process's peak RSS as one line on stderr, so the real command can run unchanged.
process.on('exit', () => {
  process.stderr.write(`\nglassbox-bench-rss ${JSON.stringify({ pid: process.pid, maxRss: process.resourceUsage().maxRSS * 1024 })}\n`);
});
