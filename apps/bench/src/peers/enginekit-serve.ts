import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { onExit } from '../internal/cleanup.js';

/** The built `enginekit` CLI beside `@enginekit/engine`'s entry point. */
export function engineCli(): string {
  const entry = createRequire(import.meta.url).resolve('@enginekit/engine');
  const cli = join(dirname(entry), 'cli.js');
  if (!existsSync(cli)) throw new Error(`no ${cli}: build @enginekit/engine first (pnpm build)`);
  return cli;
}

/** root's password on every server this process starts, the same across restarts of a file. */
const ENGINE_PASSWORD = randomBytes(12).toString('hex');

/** That password, for servers started otherwise (on a TCP port, say) in the same process. */
export function enginePassword(): string {
  return ENGINE_PASSWORD;
}

/**
 * `enginekit serve --socket` on one database file, in a child process; {@link stop} (or any
 * exit of this process) ends it. The socket is removed by the caller's temp folder.
 */
export class EngineServer {
  readonly socket: string;
  /** The administrator root's password (`ENGINEKIT_PASSWORD`): serve never runs without one. */
  readonly password: string = ENGINE_PASSWORD;
  readonly #child: ChildProcess;
  readonly #release: () => void;

  private constructor(child: ChildProcess, socket: string) {
    this.#child = child;
    this.socket = socket;
    this.#release = onExit(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
  }

  /** Starts the server with `args` (options after `serve`) and waits for its socket. */
  static async start(db: string, socket: string, args: readonly string[]): Promise<EngineServer> {
    const child = spawn(
      process.execPath,
      [engineCli(), 'serve', '--db', db, '--create', '--socket', socket, ...args],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, ENGINEKIT_PASSWORD: ENGINE_PASSWORD },
      },
    );
    let stderr = '';
    child.stderr?.on('data', (b: Buffer) => {
      stderr = (stderr + b.toString()).slice(-1000);
    });
    const server = new EngineServer(child, socket);
    const deadline = Date.now() + 60_000;
    while (!existsSync(socket)) {
      if (child.exitCode !== null || Date.now() > deadline) {
        await server.stop();
        throw new Error(`enginekit serve did not open ${socket}: ${stderr.trim() || 'timed out'}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    return server;
  }

  /** SIGTERM, then SIGKILL after 30 s; resolves when the process is gone. */
  async stop(): Promise<void> {
    const child = this.#child;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    }
    this.#release();
  }
}
