// `nudge submit`'s options table lives beside the options it makes (src/submit/options.ts).
export {SUBMIT_OPTIONS} from '../../submit/options.js';
