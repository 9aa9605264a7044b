/** The shape every command line of scripts/ shares: run, exit 0 or 1, and one sentence (exit 2) on a usage or setup error. */
export function cliMain(usage: string, run: () => Promise<boolean>): void {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    console.log(usage);
    process.exit(0);
  }
  // Through a promise: a usage error thrown while the arguments are read is one sentence too, not a stack.
  Promise.resolve()
    .then(run)
    .then(
      (ok) => process.exit(ok ? 0 : 1),
      (error: unknown) => {
        const message = (error as Error).message ?? String(error);
        console.error(`✖ ${message}${/^usage:/m.test(message) ? '' : `\n${usage}`}`);
        process.exit(2);
      },
    );
}
