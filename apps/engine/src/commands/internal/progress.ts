import { MultiBar, Presets, type SingleBar } from 'cli-progress';

/** The stream progress is drawn on: a terminal (`columns` wide). */
export interface ProgressStream extends NodeJS.WritableStream {
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/** Characters of a line besides the bar: label, brackets, percentage, counts and phase. */
function fixedWidth(label: number, total: number, phase: number): number {
  const digits = String(total).length;
  // `{label} [{bar}] {percentage}% {value}/{total} {phase}`
  return label + 2 + 2 + 4 + 1 + digits * 2 + 1 + 1 + phase;
}

/**
 * Progress bars on stderr, one line per table or step, each fitted to the terminal's width when
 * it is created (the bar shrinks, down to 4 characters; then the phase text is cut). Nothing is
 * drawn when the stream is not a terminal.
 */
export class ProgressBars {
  readonly #stream: ProgressStream;
  readonly #label: number;
  readonly #phase: number;
  #bars: MultiBar | undefined;
  #bar: SingleBar | undefined;

  /** `labelWidth`: the widest label; `phaseWidth`: the widest phase text. */
  constructor(stream: ProgressStream, labelWidth: number, phaseWidth: number) {
    this.#stream = stream;
    this.#label = labelWidth;
    this.#phase = phaseWidth;
  }

  /** Whether anything is drawn. */
  get enabled(): boolean {
    return this.#stream.isTTY === true;
  }

  /** Starts a new line `label` out of `total`. */
  start(label: string, total: number, phase = ''): void {
    if (!this.enabled) return;
    const columns = this.#stream.columns ?? 80;
    const room = columns - 1 - fixedWidth(this.#label, total, this.#phase);
    const barsize = Math.max(4, room);
    const phaseRoom = Math.max(0, this.#phase + Math.min(0, room - 4));
    this.#bars ??= new MultiBar(
      {
        format: (options, params, payload: { label: string; phase: string }) => {
          const full = Math.round(params.progress * barsize);
          const bar =
            (options.barCompleteString ?? '').slice(0, full) +
            (options.barIncompleteString ?? '').slice(0, barsize - full);
          const pct = String(Math.round(params.progress * 100)).padStart(3);
          const line = `${payload.label.padEnd(this.#label)} [${bar}] ${pct}% ${params.value}/${params.total} ${payload.phase.slice(0, phaseRoom)}`;
          return line.slice(0, columns - 1);
        },
        barsize,
        hideCursor: true,
        stream: this.#stream,
        clearOnComplete: false,
      },
      Presets.shades_classic,
    );
    this.#bar?.stop();
    this.#bar = this.#bars.create(Math.max(total, 1), 0, { label, phase });
  }

  /** Moves the current line to `value` (and a new phase text). */
  update(value: number, phase?: string): void {
    if (this.#bar === undefined) return;
    const v = Math.min(value, this.#bar.getTotal());
    this.#bar.update(v, phase === undefined ? {} : { phase });
  }

  /** Sets the current line's total (when the estimate was off) and its value. */
  finish(value: number, phase: string): void {
    if (this.#bar === undefined) return;
    this.#bar.setTotal(Math.max(value, 1));
    this.#bar.update(value, { phase });
  }

  /** Stops drawing (idempotent). */
  stop(): void {
    this.#bar?.stop();
    this.#bars?.stop();
    this.#bar = undefined;
    this.#bars = undefined;
  }
}
