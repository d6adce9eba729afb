// Delivery proven at the model for the agents nudge supports through a profile file alone
// (data/agents/<agent>.toml, no TypeScript of their own): opencode and Qwen Code. The
// scenarios are in test/helpers/at-model-scenarios.ts; this file runs beside
// agents-at-model.test.ts.
import {atModelScenarios} from '../helpers/at-model-scenarios.js';
import {DATA_AGENT_NAMES} from '../helpers/real-agents.js';

atModelScenarios(DATA_AGENT_NAMES);
