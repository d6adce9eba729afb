// `npm run build`: dist/ from the sources — tsc, the front end's bundle, the compiled
// profiles — unless dist/ was built from exactly these sources already (a hash of them is kept
// in dist/.built), so the test commands that each start with a build (npm test, test:faults,
// test:slow, test:matrix, dupes) build once in a CI run. `--force` always builds. Plain
// JavaScript: it runs before anything is compiled.
import {execFileSync} from 'node:child_process';
import {createHash} from 'node:crypto';
import {existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';

const INPUTS = [
  'src',
  'workers',
  'scripts',
  'test/harness',
  'data',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
];
const STAMP = join('dist', '.built');

function files(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => files(join(path, name)));
}

const hash = createHash('sha256');
for (const file of INPUTS.flatMap(files)) hash.update(`${file}\0`).update(readFileSync(file));
const sources = hash.digest('hex');

if (
  !process.argv.includes('--force') &&
  existsSync(STAMP) &&
  readFileSync(STAMP, 'utf8') === sources
) {
  console.log('build: dist/ is up to date with the sources (npm run build -- --force rebuilds)');
  process.exit(0);
}
const run = (file, args) => execFileSync(file, args, {stdio: 'inherit'});
rmSync('dist', {recursive: true, force: true});
run(process.execPath, [
  join('node_modules', 'typescript', 'bin', 'tsc'),
  '-p',
  'tsconfig.build.json',
]);
run(process.execPath, [join('dist', 'scripts', 'bundle.js')]);
run(process.execPath, [join('dist', 'scripts', 'compile-profiles.js')]);
writeFileSync(STAMP, sources);
