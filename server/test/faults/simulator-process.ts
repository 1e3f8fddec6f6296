import { startSimulator } from '../../../simulators/start-simulator.ts';

/**
 * The fault suite's vendor upstream as its own OS process: the simulators, streaming one chunk every
 * `SIMULATOR_CHUNK_DELAY_MS`, so a fault lands while streams are open. Prints its URL, runs until SIGTERM.
 */
const simulator = await startSimulator({ chunkDelayMs: Number(process.env.SIMULATOR_CHUNK_DELAY_MS ?? '0') });
process.stdout.write(`simulator listening on ${simulator.url}\n`);
process.once('SIGTERM', () => {
  void simulator.close().then(() => process.exit(0));
});
