// Delivery proven at the model for the second half of the agents of data alone (the first
// half: data-agents-at-model.test.ts, beside this file).
import {atModelScenarios} from '../helpers/at-model-scenarios.js';
import {DATA_AGENT_NAMES} from '../helpers/real-agents.js';

atModelScenarios(DATA_AGENT_NAMES.slice(Math.ceil(DATA_AGENT_NAMES.length / 2)));
