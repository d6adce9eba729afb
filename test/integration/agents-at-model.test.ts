// Delivery proven at the model for Claude Code, Gemini CLI and Codex: the scenarios are in
// test/helpers/at-model-scenarios.ts (data-agents-at-model.test.ts runs them for the agents
// supported by a profile file alone, beside this file).
import {atModelScenarios} from '../helpers/at-model-scenarios.js';
import {AGENT_NAMES} from '../helpers/real-agents.js';

atModelScenarios(AGENT_NAMES);
