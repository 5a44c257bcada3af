/**
 * Turn-by-turn replay of one trace file: which model messages are the context a resume rebuilds.
 * The Python binding's `omnimessage.model_context.replay`, rule for rule; both re-state the reference's replay
 * (`resumeTrace` in PenguinHarness `packages/core/src/trace/resume.ts`):
 *
 * - A request's **input** is the user-side complete model messages gathered since the previous
 *   `request_end` (the first request's since `session_meta`); user-side messages that land between
 *   `request_begin` and `request_end` (parallel tools finishing) count toward the *next* request.
 *   Its **output** is the assistant complete messages between `request_begin` and `request_end`.
 * - A request whose `request_end` has status `completed` is committed: its eligible input, then its
 *   output, join the history. Any other end, a second `request_begin` before an end, or the file
 *   ending inside a request drops the turn: its input goes back to the pending input (inside a
 *   compaction span, only its tool outputs do), its output is lost.
 * - A tool output is eligible only when it answers a committed, not yet answered `tool_call`
 *   (`stop_reason` `completed`). A committed call still unanswered when a later request commits
 *   gets a placeholder output before that request's input; one unanswered at the end gets a
 *   placeholder at the end of the carry-over.
 * - The pending input left at the end is the carry-over, resent with the next run.
 *
 * @module
 */

/** The output text of the reference's pairing placeholder (`PROCESS_EXIT_PLACEHOLDER` in resume.ts). */
export const PLACEHOLDER_OUTPUT = "[interrupted: process exited before the tool finished]";

/** What a replay needs to know of one context message: its role and its tool-call pairing. */
export interface Turn<T> {
  readonly item: T;
  readonly role: string;
  /** The tool_call_id a tool_call_output answers. */
  readonly outputOf?: string;
  /** The tool_call_id of a tool_call that stopped `completed`. */
  readonly completedCall?: string;
}

/** Feed the file's records in order, then {@link Replay.finish}. */
export class Replay<T> {
  readonly history: Turn<T>[] = [];
  private pending: Turn<T>[] = [];
  private snapshot: Turn<T>[] = [];
  private outputs: Turn<T>[] = [];
  inRequest = false;
  private inCompaction = false;
  /** Call ids in the order their calls were committed. */
  private readonly committed = new Set<string>();
  private readonly answered = new Set<string>();

  /** @param placeholder - the synthesized output for a call id, stamped `at`. */
  constructor(private readonly placeholder: (callId: string, at: string) => Turn<T>) {}

  private eligible(turn: Turn<T>): boolean {
    const cid = turn.outputOf;
    return cid === undefined || (this.committed.has(cid) && !this.answered.has(cid));
  }

  private dropRound(): void {
    const keep = this.inCompaction ? this.snapshot.filter((t) => t.outputOf !== undefined) : this.snapshot;
    this.pending = keep.concat(this.pending);
    this.snapshot = [];
    this.outputs = [];
    this.inRequest = false;
  }

  model(turn: Turn<T>): void {
    if (turn.role === "user") this.pending.push(turn);
    else if (this.inRequest) this.outputs.push(turn);
  }

  requestBegin(): void {
    if (this.inRequest) this.dropRound();
    this.inRequest = true;
    this.snapshot = this.pending;
    this.pending = [];
  }

  requestEnd(completed: boolean, at: string): void {
    if (!completed) {
      this.dropRound();
      return;
    }
    const eligible = this.snapshot.filter((t) => this.eligible(t));
    const answeredNow = new Set<string>();
    for (const t of eligible) if (t.outputOf !== undefined) answeredNow.add(t.outputOf);
    for (const cid of this.committed) {
      if (!this.answered.has(cid) && !answeredNow.has(cid)) {
        this.history.push(this.placeholder(cid, at));
        this.answered.add(cid);
      }
    }
    for (const t of eligible) this.history.push(t); // (no spread: a long run would overflow the stack)
    for (const t of this.outputs) this.history.push(t);
    for (const cid of answeredNow) this.answered.add(cid);
    for (const t of this.outputs) if (t.completedCall !== undefined) this.committed.add(t.completedCall);
    this.snapshot = [];
    this.outputs = [];
    this.inRequest = false;
  }

  compaction(begin: boolean): void {
    this.inCompaction = begin;
  }

  /** The carry-over: the eligible pending input, then placeholders for committed calls answered nowhere. */
  finish(at: string): Turn<T>[] {
    if (this.inRequest) this.dropRound();
    const carry = this.pending.filter((t) => this.eligible(t));
    const paired = new Set(this.answered);
    for (const t of carry) if (t.outputOf !== undefined) paired.add(t.outputOf);
    for (const cid of this.committed) if (!paired.has(cid)) carry.push(this.placeholder(cid, at));
    return carry;
  }
}
