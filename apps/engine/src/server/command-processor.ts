import type { StatusName } from '../exec/status.js';
import type { Session } from '../session/session.js';
import { instanceOf } from '../session/instance.js';
import { LockWaitPending } from '../session/transactions.js';
import type { QueryResult } from '../session/result.js';
import { decodeClientText } from '../sql/client-text.js';
import { asProtocolError } from './client-error.js';
import { KILL_CONNECTION } from '../exec/interrupt.js';
import { type ColumnMeta, inferredColumns, resultColumnMeta } from './column-types.js';
import { writeColumnDefinition } from './packets/column-definition.js';
import { writeEof } from './packets/eof.js';
import { serverErrors, writeErr } from './packets/err.js';
import { writeOk } from './packets/ok.js';
import { writePrepareOk } from './packets/stmt-prepare-ok.js';
import {
  type BoundTypes,
  ExecuteArgumentsError,
  readExecuteHeader,
  readExecuteParams,
} from './packets/stmt-execute.js';
import { type ChunkOut, WireRowSink } from './result-stream.js';
import { NetWriteAborted } from './stream-credit.js';
import {
  COM_FIELD_LIST,
  COM_INIT_DB,
  COM_PING,
  COM_PROCESS_KILL,
  COM_QUERY,
  COM_QUIT,
  COM_RESET_CONNECTION,
  COM_STATISTICS,
  COM_STMT_CLOSE,
  COM_STMT_EXECUTE,
  COM_STMT_PREPARE,
  COM_STMT_RESET,
  COM_STMT_SEND_LONG_DATA,
  SERVER_STATUS_AUTOCOMMIT,
  SERVER_STATUS_IN_TRANS,
  SERVER_STATUS_IN_TRANS_READONLY,
} from './protocol.js';
import { multiStatementError } from './server-statements.js';
import { MalformedPacketError, PacketReader, PacketWriter } from './wire.js';

/** What the connection does after sending a reply. */
export interface Reply {
  /** The framed packets to send (possibly empty: COM_STMT_CLOSE and COM_QUIT have no reply). */
  readonly bytes: Buffer;
  /** Close the connection after sending. */
  readonly close: boolean;
  /** The session's wait_timeout (seconds) after the command: how long the connection may idle. */
  readonly waitTimeout: number;
  /**
   * Set when the command committed a transaction: send the reply once this resolves (the commit
   * is durable as `innodb_flush_log_at_trx_commit` says), so concurrent commits share an fsync.
   */
  readonly durable?: Promise<void>;
}

interface Statement {
  /** The text it was prepared from. */
  readonly sql: string;
  readonly run: (params?: readonly unknown[]) => QueryResult;
  readonly paramCount: number;
  types: BoundTypes | undefined;
  readonly params: unknown[];
  /** Long data per parameter (COM_STMT_SEND_LONG_DATA), until the next execution or reset. */
  readonly longData: Map<number, Buffer[]>;
  /** Long data was sent for a parameter the statement does not have. */
  longDataError: boolean;
}

/**
 * One connection's commands after authentication, as a function from a command packet's payload
 * to the reply's bytes. Everything it needs is the session (and through it the database): it
 * owns no socket, so it runs where the session runs — on a session worker thread attached to the
 * shared buffer pool (or on the main thread with `--threads 0`), with the payloads and replies passed as
 * transferable buffers.
 */
export class CommandProcessor {
  readonly session: Session;
  readonly connectionId: number;
  readonly #w = new PacketWriter(4096);
  readonly #statements = new Map<number, Statement>();
  #nextStatementId = 1;
  /** Threads_connected as the host last reported it (set before each statement). */
  threadsConnected = 1;
  /**
   * Where the chunks of a result set go while its statement runs (the session host sends them to
   * the client); undefined: they are kept and sent at the head of the command's reply.
   */
  out: ChunkOut | undefined;
  /** The result set of the running command, written as its rows are produced. */
  #stream: WireRowSink | undefined;
  /** Chunks kept for the reply (no `out`). */
  #kept: Buffer[] = [];

  constructor(session: Session, connectionId: number) {
    this.session = session;
    this.connectionId = connectionId;
    // The connection sends the OK once the commit is durable (group commit), not the session.
    session.deferCommitWait = true;
    this.#w.serverStatus = () => this.#serverStatus();
  }

  /**
   * The status bits of OK and EOF packets, as the statement left the session: in a transaction
   * (SERVER_STATUS_IN_TRANS, with IN_TRANS_READONLY for START TRANSACTION READ ONLY) and whether
   * autocommit is on, so a client can tell that it has a transaction to end.
   */
  #serverStatus(): number {
    const s = this.session;
    let bits = Number(s.vars.get('autocommit')) === 1 ? SERVER_STATUS_AUTOCOMMIT : 0;
    if (s.txn.active) {
      bits |= SERVER_STATUS_IN_TRANS;
      if (s.txn.trx.readOnly) bits |= SERVER_STATUS_IN_TRANS_READONLY;
    }
    return bits;
  }

  /** A statement that waited for a lock runs again: its command was counted already. */
  #rerun = false;

  /**
   * How a statement that waited for a lock runs again: by default `handle` itself; a session
   * worker wraps it in the locks it holds around every command.
   */
  rerun: (payload: Buffer) => Reply | Promise<Reply> = (payload) => this.handle(payload);

  /**
   * Runs one command (its payload: command byte and arguments); the reply starts at sequence id 1.
   * A statement that must wait for a lock gives a Promise of the reply: the statement runs again
   * once the lock is granted, or the reply is its error (1205, 1213, 1317). A reply to a statement
   * that committed carries `durable`: the connection sends it once the commit is on disk.
   */
  handle(payload: Buffer): Reply | Promise<Reply> {
    const reply = this.#handle(payload);
    return reply instanceof Promise ? reply.then((r) => this.#durable(r)) : this.#durable(reply);
  }

  #durable(reply: Reply): Reply {
    const lsn = this.session.lastCommitLsn;
    const redo = this.session.db.redo;
    if (lsn === this.#acked || redo === null) return reply;
    this.#acked = lsn;
    return { ...reply, durable: redo.waitCommitted(lsn) };
  }

  /** The last commit LSN a reply has waited for. */
  #acked = 0n;

  #handle(payload: Buffer): Reply | Promise<Reply> {
    // a run again after a lock wait goes on with a result that was sent in part
    const w = this.#rerun && this.#stream !== undefined ? this.#w : this.#w.reset(1);
    try {
      const r = this.#dispatch(payload, w);
      this.#rerun = false;
      this.#endStream();
      return this.#withKept(r);
    } catch (e) {
      this.#rerun = false;
      if (e instanceof LockWaitPending) {
        const s = this.#stream;
        if (s?.flushed === true) s.rewind();
        else this.#endStream();
        this.#kept = [];
        const copy = Buffer.from(payload);
        return e.wait().then(
          () => {
            this.#rerun = true;
            return this.rerun(copy);
          },
          (err: unknown) => this.#withKept(this.#error(err)),
        );
      }
      return this.#withKept(this.#error(e));
    }
  }

  /** The reply with the chunks kept before it (no `out`) at its head. */
  #withKept(r: Reply): Reply {
    if (this.#kept.length === 0) return r;
    const bytes = Buffer.concat([...this.#kept, r.bytes]);
    this.#kept = [];
    return { ...r, bytes };
  }

  /** The command's result set is over: the session's rows go back to its results. */
  #endStream(): void {
    this.#stream = undefined;
    this.session.rowSink = undefined;
    // a row of many megabytes grew the writer: give the memory back
    if (this.#w.buf.length > 1 << 20 && this.#w.pos === 0) this.#w.buf = Buffer.allocUnsafe(4096);
  }

  /** Starts the result set of a query or an execution (kept as it was by a run again). */
  #startStream(w: PacketWriter, binary: boolean): WireRowSink {
    let s = this.#stream;
    if (s === undefined) {
      s = new WireRowSink(w, binary, this.out ?? ((bytes) => this.#kept.push(bytes)));
      const entry = this.session.txn.entry;
      s.onFirstChunk = () => {
        entry.state = 'Sending data';
      };
      this.#stream = s;
    }
    this.session.rowSink = s;
    return s;
  }

  #error(e: unknown): Reply {
    // an error after a result set began ends it: the ERR follows its rows, as MariaDB sends it
    const begun = this.#stream?.begun === true;
    this.#endStream();
    if (e instanceof NetWriteAborted) {
      // the client does not read (net_write_timeout) or is gone: nothing more is sent
      this.#w.reset(1);
      return { bytes: Buffer.alloc(0), close: true, waitTimeout: this.#waitTimeout() };
    }
    const w = begun ? this.#w : this.#w.reset(1);
    if (e instanceof MalformedPacketError) {
      writeErr(w, serverErrors.malformed());
      return { bytes: w.take(), close: true, waitTimeout: this.#waitTimeout() };
    }
    // KILL CONNECTION: whatever stopped the statement, the client reads 1927 and the connection closes
    if (this.session.txn.entry.interrupt === KILL_CONNECTION) {
      writeErr(w, serverErrors.connectionKilled());
      return { bytes: w.take(), close: true, waitTimeout: this.#waitTimeout() };
    }
    writeErr(w, asProtocolError(e, this.connectionId));
    return { bytes: w.take(), close: false, waitTimeout: this.#waitTimeout() };
  }

  #waitTimeout(): number {
    return Number(this.session.vars.get('wait_timeout'));
  }

  /** Closes the session and forgets its prepared statements. */
  close(): void {
    this.#preparedClosed(this.#statements.size);
    this.#statements.clear();
    this.session.close();
  }

  #dispatch(payload: Buffer, w: PacketWriter): Reply {
    if (payload.length === 0) throw new MalformedPacketError('Malformed communication packet.');
    const r = new PacketReader(payload, 1);
    switch (payload[0]) {
      case COM_QUERY:
        this.#query(decodeClientText(r.rest()), w);
        break;
      case COM_STMT_PREPARE:
        this.#prepare(decodeClientText(r.rest()), w);
        break;
      case COM_STMT_EXECUTE:
        this.#execute(r, w);
        break;
      case COM_STMT_CLOSE: {
        const id = r.u32();
        if (this.#statements.delete(id)) this.#preparedClosed(1);
        this.#count('Com_stmt_close');
        return { bytes: w.take(), close: false, waitTimeout: this.#waitTimeout() };
      }
      case COM_STMT_RESET: {
        const id = r.u32();
        const st = this.#statements.get(id);
        this.#count('Com_stmt_reset');
        if (st === undefined) writeErr(w, serverErrors.unknownStatement(id, 'mysqld_stmt_reset'));
        else {
          st.longData.clear();
          st.longDataError = false;
          writeOk(w);
        }
        break;
      }
      case COM_STMT_SEND_LONG_DATA: {
        // no reply, as MySQL: chunks are kept for the statement's next execution
        const st = this.#statements.get(r.u32());
        const param = r.u16();
        const data = Buffer.from(r.rest());
        if (st !== undefined) {
          if (param >= st.paramCount) st.longDataError = true;
          else {
            const chunks = st.longData.get(param);
            if (chunks === undefined) st.longData.set(param, [data]);
            else chunks.push(data);
          }
        }
        return { bytes: w.take(), close: false, waitTimeout: this.#waitTimeout() };
      }
      case COM_PING:
        writeOk(w);
        break;
      case COM_PROCESS_KILL:
        // KILL CONNECTION of a 4-byte id (a host on worker threads answers it before it comes here)
        this.session.query(`KILL CONNECTION ${r.u32()}`);
        writeOk(w);
        break;
      case COM_STATISTICS:
        // mysql_stat(): one string, as MySQL's status line (the mariadb client's `status` prints it)
        w.begin().str(this.#statistics()).end();
        break;
      case COM_INIT_DB: {
        const name = r.rest().toString('utf8');
        this.session.counters.add('Com_change_db', 1);
        this.#count('Questions');
        this.session.useDatabase(name);
        writeOk(w);
        break;
      }
      case COM_FIELD_LIST:
        this.#fieldList(r.nulBytes().toString('utf8'), w);
        break;
      case COM_QUIT:
        return { bytes: w.take(), close: true, waitTimeout: this.#waitTimeout() };
      case COM_RESET_CONNECTION:
        // the session starts over; its prepared statements are closed
        this.#preparedClosed(this.#statements.size);
        this.#statements.clear();
        this.session.reset();
        writeOk(w);
        break;
      default:
        writeErr(w, serverErrors.unknownCommand());
    }
    return { bytes: w.take(), close: false, waitTimeout: this.#waitTimeout() };
  }

  #statistics(): string {
    const g = this.session.globalCounters;
    const uptime = Math.max(1, Math.floor(process.uptime()));
    const questions = g.get('Questions');
    const tables = this.session.db.tables().length;
    return `Uptime: ${uptime}  Threads: ${this.threadsConnected}  Questions: ${questions}  Slow queries: 0  Opens: ${tables}  Open tables: ${tables}  Queries per second avg: ${(questions / uptime).toFixed(3)}`;
  }

  /** The text prepared statement `id` was prepared from (undefined: no such statement). */
  preparedText(id: number): string | undefined {
    return this.#statements.get(id)?.sql;
  }

  /** `n` of this connection's prepared statements closed (Prepared_stmt_count, the server's). */
  #preparedClosed(n: number): void {
    instanceOf(this.session.db).preparedStatements.release(n);
  }

  #count(name: StatusName): void {
    this.session.counters.add(name, 1);
  }

  /** Threads_connected as the host reports it (a level of the global map). */
  #connected(): void {
    this.session.globalCounters.set('Threads_connected', this.threadsConnected);
  }

  #query(sql: string, w: PacketWriter): void {
    this.#connected();
    const multi = multiStatementError(sql);
    if (multi !== undefined) {
      writeErr(w, multi);
      return;
    }
    const s = this.#startStream(w, false);
    this.#result(w, s, this.session.query(sql));
  }

  #prepare(sql: string, w: PacketWriter): void {
    this.#count('Com_stmt_prepare');
    const multi = multiStatementError(sql);
    if (multi !== undefined) {
      writeErr(w, multi);
      return;
    }
    // Prepared_stmt_count over every connection of the server, which max_prepared_stmt_count caps
    const max = Number(this.session.globalVars.get('max_prepared_stmt_count'));
    const count = instanceOf(this.session.db).preparedStatements;
    if (!count.reserve(max)) {
      writeErr(w, serverErrors.tooManyPrepared(max));
      return;
    }
    let p: ReturnType<Session['prepare']>;
    try {
      p = this.session.prepare(sql);
    } catch (e) {
      count.release();
      throw e;
    }
    const id = this.#nextStatementId++;
    this.#statements.set(id, {
      sql,
      run: p.run,
      paramCount: p.paramCount,
      types: undefined,
      params: [],
      longData: new Map(),
      longDataError: false,
    });
    const d = p.describe();
    const cols =
      d === undefined ? [] : d.columns.map((name, i) => resultColumnMeta(name, d.types[i]!, d.fields?.[i]));
    writePrepareOk(w, id, p.paramCount, cols);
  }

  #execute(r: PacketReader, w: PacketWriter): void {
    this.#connected();
    if (!this.#rerun) this.#count('Com_stmt_execute');
    const h = readExecuteHeader(r);
    const st = this.#statements.get(h.statementId);
    if (st === undefined) {
      writeErr(w, serverErrors.unknownStatement(h.statementId, 'mysqld_stmt_execute'));
      return;
    }
    let long: Map<number, string> | undefined;
    if (st.longData.size > 0) {
      long = new Map([...st.longData].map(([i, chunks]) => [i, decodeClientText(Buffer.concat(chunks))]));
      st.longData.clear();
    }
    if (st.longDataError) {
      st.longDataError = false;
      writeErr(w, serverErrors.wrongArguments('mysqld_stmt_send_long_data'));
      return;
    }
    try {
      st.types = readExecuteParams(r, st.paramCount, st.types, st.params, long);
    } catch (e) {
      if (e instanceof ExecuteArgumentsError) {
        writeErr(w, serverErrors.wrongArguments('mysqld_stmt_execute'));
        return;
      }
      throw e;
    }
    const s = this.#startStream(w, true);
    this.#result(w, s, st.run(st.params));
  }

  #fieldList(table: string, w: PacketWriter): void {
    this.#count('Com_show_fields');
    const res = this.session.query(`SELECT * FROM \`${table.replace(/`/g, '``')}\` LIMIT 0`);
    for (const c of columnsOf(res)) writeColumnDefinition(w, c);
    writeEof(w);
  }

  /**
   * A statement's answer: an OK, or the end of its result set. A SELECT's rows went out through
   * `s` as they were produced; any other result set (SHOW, EXPLAIN, …) is written through it now,
   * in chunks as well.
   */
  #result(w: PacketWriter, s: WireRowSink, res: QueryResult): void {
    if (res.streamed === true) {
      s.finish(res.warnings);
      return;
    }
    if (res.columns.length === 0) {
      writeOk(w, res.affectedRows, res.insertId, res.warnings, res.info);
      return;
    }
    s.beginWith(columnsOf(res));
    for (const row of res.rows) s.row(row);
    s.finish(res.warnings);
  }
}

function columnsOf(res: QueryResult): ColumnMeta[] {
  const types = res.types;
  if (types !== undefined && types.length === res.columns.length)
    return res.columns.map((name, i) => resultColumnMeta(name, types[i]!, res.fields?.[i]));
  return inferredColumns(res.columns, res.rows);
}
