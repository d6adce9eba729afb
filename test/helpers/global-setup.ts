import {existsSync} from 'node:fs';
import {fileURLToPath} from 'node:url';

/** Integration tests run the built CLI (dist/): `npm test` builds first. */
export default function setup(): void {
  const cli = fileURLToPath(new URL('../../dist/src/cli.js', import.meta.url));
  if (!existsSync(cli)) {
    throw new Error(`${cli} is missing: run "npm run build" first (npm test does this).`);
  }
}
