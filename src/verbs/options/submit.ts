// `nudge submit`'s options table lives beside the options it makes (src/job-options/table.ts).
export {SUBMIT_OPTIONS} from '../../job-options/table.js';
