import type {RelaySpec} from '../../src/relay/record.js';

/** A relay as the relay tests take it: job 0mwt00000-abcd on host gpu, its notice into pane
 * %4 once the command exits. */
export const RELAY_SPEC: RelaySpec = {
  job: '0mwt00000-abcd',
  from: 'gpu',
  to: {pane: '%4'},
  notice: {until: 'exit'},
};
