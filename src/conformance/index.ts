export {
  type CaseOutcome,
  type CaseReport,
  type CaseRunner,
  type ConformanceOptions,
  type ConformanceReport,
  diffWords,
  formatReport,
  reportJson,
  runConformance,
} from './harness.ts';
export { type JsonlRecord, readJsonl } from './reader.ts';
