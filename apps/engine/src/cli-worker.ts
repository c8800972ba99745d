import { parentPort, workerData } from 'node:worker_threads';
import { removeAllSpillDirectories } from '@enginekit/common';
import { demoWork } from './commands/demo.js';
import { genWork } from './commands/gen.js';
import { failure } from './commands/internal/failure.js';
import type { JobData, JobMessage, JobProgress } from './commands/internal/messages.js';
import { loadWork } from './commands/load.js';

// The worker side of a CLI job (see commands/internal/job.ts): runs the command's synchronous
// work and reports progress, output and the outcome to the main thread.
const port = parentPort;
if (port === null) throw new Error('cli-worker.js runs as a worker thread of the enginekit command');
const data = workerData as JobData;
const post = (m: JobMessage): void => port.postMessage(m);
const progress = (p: JobProgress): void => post({ type: 'progress', progress: p });
const out = (text: string): void => post({ type: 'out', text });

try {
  if (data.kind === 'gen') genWork(data.options as Parameters<typeof genWork>[0], progress, out);
  else if (data.kind === 'load') loadWork(data.options as Parameters<typeof loadWork>[0], progress, out);
  else demoWork(data.options as Parameters<typeof demoWork>[0], progress, out);
  post({ type: 'done' });
} catch (e) {
  removeAllSpillDirectories();
  const f = failure(e);
  post({
    type: 'fail',
    status: f.status,
    line: f.line,
    ...(f.stack === undefined ? {} : { stack: f.stack }),
  });
}
