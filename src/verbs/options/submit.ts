// `nudge submit`'s options table lives beside the options it makes (src/jobs/options.ts).
export {SUBMIT_OPTIONS} from '../../jobs/options.js';
