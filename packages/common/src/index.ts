export { compareBytes, compareKeys } from './compare-bytes.js';
export { DiskFullError, DuplicateKeyError, TempFileError } from './errors.js';
export {
  liveSpillDirectories,
  nodeSpillFileSystem,
  removeAllSpillDirectories,
  removeDeadSpillDirectories,
  SpillDirectory,
  type SpillDirectoryOptions,
  type SpillFileSystem,
} from './spill-directory.js';
