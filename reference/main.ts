/** Entry point: `node --require tsx/cjs reference/main.ts` (npm run reference). Configuration comes from REF_* variables. */
import { startReference } from './server';

async function main(): Promise<void> {
  const handle = await startReference();
  // Playwright's webServer reads the port from this exact line; keep it first and alone.
  process.stdout.write(`reference listening on port ${handle.port}\n`);
  process.stdout.write(`base_url=${handle.url}\n`);
  process.stdout.write(`auth_url=${handle.url}\n`);
  let closing = false;
  const shutdown = (signal: NodeJS.Signals): void => {
    if (closing) return;
    closing = true;
    handle.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`shutdown after ${signal} failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

main().catch((error: unknown) => {
  process.stderr.write(`reference failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
