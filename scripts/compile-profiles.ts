/**
 * Part of `npm run build`: write the built-in profiles (data/agents/*.toml) as the schema
 * checked them to dist/profiles.json, so a nudge process reads JSON instead of loading zod and
 * the TOML parser (src/agents/builtin.ts, readBuiltins). A built-in file that does not check
 * fails the build with its sentence.
 */
import {writeFileSync} from 'node:fs';
import {compileBuiltinProfiles, compiledPath} from '../src/agents/builtin.js';

writeFileSync(compiledPath(), compileBuiltinProfiles());
process.stdout.write(`compiled the built-in profiles to ${compiledPath()}\n`);
