export type { Experiment, ExperimentContext, ExperimentOutput } from './experiment.js';
export type {
  Cell,
  Chart,
  ChartPoint,
  ChartSeries,
  Claim,
  Column,
  ExperimentResult,
  MachineInfo,
  PostRef,
  Table,
} from './result.js';
export { checkResult, RESULT_SCHEMA } from './result.js';
export { EXPERIMENTS, findExperiment, PLANNED } from './registry.js';
export { defaultResultFile, runExperiment, saveResult } from './runner.js';
export { machineInfo } from './machine.js';
export type { Spread } from './measure.js';
export { spread, timeInterleaved, timeRuns } from './measure.js';
export { renderReport } from './report/html.js';
export { chartSvg, expectedPoints } from './report/svg.js';
export { loadResults, resultsIn } from './report/load.js';
export { formatTable } from './text-table.js';
export { outputWidth, wrapText } from './text-wrap.js';
export { collectCommand, experimentCommand, listCommand, reportCommand } from './commands.js';
export { tourCommand } from './tour.js';
export { type Citation, citation, POSTS, type PostName } from './posts.js';
export type { BennyCase, CollectResult, MarkdownTable, PackageBench } from './collect.js';
export {
  benchPackages,
  COLLECT_SCHEMA,
  collectBenches,
  parseBennyCases,
  parseMarkdownTables,
} from './collect.js';
export { UsageError } from './args.js';
