// The bundled backend's public surface: what the extension and the CLI start in-process.
export { type LoopwireServer, type StartOptions, startServer } from './startServer';
export { type ServerOptions, type ServerLimits, DEFAULT_LIMITS, DEFAULTS } from './serverOptions';
export { ScenarioFile, ScenarioFileError, loadScenarioFile, parseScenarioFile } from './scenarioFile';
export { DEFAULT_SCENARIOS } from './defaultScenarios';
export { Fault, FaultOrder } from './faults';
export type { TurnRecord } from './turnService';
export type { ServerStats } from './adminApi';
export type { WireRecord } from './wireLog';
export { prepareTokenizer } from './tokenizer';
