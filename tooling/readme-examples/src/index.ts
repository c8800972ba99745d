export type { ExampleBlock, Readme } from './extract.js';
export { extractBlocks, findReadmes, readmeBlocks, workspaceRoot } from './extract.js';
export type { BlockRun, RunOptions } from './run-block.js';
export {
  describeFailure,
  programText,
  runBlock,
  runProblems,
  strayPrograms,
  tempPrefix,
} from './run-block.js';
