// Delivery proven at the model for the agents nudge supports through a profile file alone
// (data/agents/<agent>.toml, no TypeScript of their own): the first half of them here, the
// rest in data-agents-2-at-model.test.ts, so the at-model project's workers share them. The
// scenarios are in test/helpers/at-model-scenarios.ts.
import {atModelScenarios} from '../helpers/at-model-scenarios.js';
import {DATA_AGENT_NAMES} from '../helpers/real-agents.js';

atModelScenarios(DATA_AGENT_NAMES.slice(0, Math.ceil(DATA_AGENT_NAMES.length / 2)));
