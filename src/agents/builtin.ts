import {readFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {join} from 'node:path';
import type * as TomlPatch from '@decimalturn/toml-patch';
import {packageDir} from '../base/version.js';
import {PROFILE_NAMES, type Profile, type ProfileName} from './profile.js';
import {checkProfileFile, profileOf} from './schema.js';

const load = createRequire(import.meta.url);

/** Parse TOML (the parser is loaded on first use: `nudge submit` never needs it). */
export function parseToml(text: string): unknown {
  return (load('@decimalturn/toml-patch') as typeof TomlPatch).parse(text);
}

/** Where the built-in profiles are: data/agents/<name>.toml in the package. */
export function builtinDir(): string {
  return join(packageDir(), 'data', 'agents');
}

/**
 * The profiles nudge ships, read from their data files through the one schema
 * (src/agents/schema.ts). A built-in file that does not read or check is a broken package:
 * an Error naming the file.
 */
export function loadBuiltinProfiles(dir = builtinDir()): Record<ProfileName, Profile> {
  const out: Partial<Record<ProfileName, Profile>> = {};
  for (const name of PROFILE_NAMES) {
    const path = join(dir, `${name}.toml`);
    let value: unknown;
    try {
      value = parseToml(readFileSync(path, 'utf8'));
    } catch (error) {
      throw new Error(
        `Internal error: the built-in profile ${path} cannot be read (${String(error)})`,
      );
    }
    const checked = checkProfileFile(value, path);
    if (!checked.ok) throw new Error(`Internal error: the built-in profile ${checked.error}`);
    out[name] = profileOf(checked.value);
  }
  return out as Record<ProfileName, Profile>;
}
