export {waitFor} from '../harness/wait-for.js';
