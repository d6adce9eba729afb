/**
 * The doors into an agent: ways to hand it a notice other than typing into its terminal.
 * A profile lists the doors its program offers (`[[doors]]` in data/agents/*.toml), in the
 * order they are tried; typing stays the floor under them (docs/agents.md, "Doors").
 */
export const DOOR_KINDS = [
  'claude-inbox',
  'pi-extension',
  'opencode-server',
  'codex-app-server',
] as const;
export type DoorKind = (typeof DOOR_KINDS)[number];

/** How a notice may go: the doors, then typing (`auto`); typing only (`keys`); a door only,
 * never typing (`native`). */
export const VIAS = ['auto', 'keys', 'native'] as const;
export type Via = (typeof VIAS)[number];

/** One door as a profile declares it. */
export interface DoorSpec {
  kind: DoorKind;
  /** The program's oldest version that has it (read where the door finds the program). */
  minVersion?: string | undefined;
}
