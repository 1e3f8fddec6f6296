import { existsSync } from 'node:fs';
import path from 'node:path';
import { readConfigOrExit, runGateway } from '../server/src/main.ts';

/**
 * `npm start`: runs the gateway in this same process, serving the web app that `npm run build` (or `npm install`)
 * built; it runs no build tool, so a production start needs no development dependency at run time. npm forwards
 * SIGTERM and SIGINT to its child only, so the server must be that child (the npm script `exec`s this file): a shell
 * or a second node process in between would leave the gateway running, orphaned, without draining.
 */
const config = readConfigOrExit();
if (!existsSync(path.join(config.webDistDir, 'index.html'))) {
  // The API works without the web app; the page at / then says how to build it.
  process.stderr.write(`gateway: the web app is not built in ${config.webDistDir}; run \`npm run build\`\n`);
}
await runGateway(config);
