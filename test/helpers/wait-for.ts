export {waitFor} from '../../scripts/lib/wait-for.js';
