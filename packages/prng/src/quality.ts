export {
  birthdayTest,
  DEFAULT_ALPHA,
  type CommonOptions,
  type DiveResult,
  diveTest,
  gapTest,
  residueTest,
  runsTest,
  serialTest,
  type TestResult,
  uniformityTest,
} from './quality/tests.js';
export { chiSquareSurvival, gammaQ, logGamma } from './quality/stats.js';
export {
  batteryTests,
  formatReport,
  type GeneratorReport,
  report,
  type ReportOptions,
} from './quality/report.js';
