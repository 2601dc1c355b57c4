import { createParser, type EventSourceParser } from "eventsource-parser";

/**
 * Server-sent events over eventsource-parser (what the official SDKs use), fed with decoded text in
 * arbitrary chunks; the caller's read loop keeps the byte and event caps.
 */
export interface SseEvent {
  /** "message" when the stream named none. */
  event: string;
  /** data lines joined with "\n". */
  data: string;
  id?: string;
  retry?: number;
}

export class SseParser {
  private readonly parser: EventSourceParser;
  private out: SseEvent[] = [];
  private sawBom = false;
  private pendingCr = false;
  private lastId: string | undefined;
  private retry: number | undefined;

  constructor() {
    this.parser = createParser({
      onEvent: (e) => {
        if (e.id !== undefined) this.lastId = e.id;
        // Priming events (an id and empty data) carry nothing to read.
        if (e.data === "") return;
        const ev: SseEvent = { event: e.event || "message", data: e.data };
        if (this.lastId !== undefined) ev.id = this.lastId;
        if (this.retry !== undefined) ev.retry = this.retry;
        this.out.push(ev);
      },
      onRetry: (ms) => {
        this.retry = ms;
      },
    });
  }

  /** Feeds one chunk of text; returns the events completed by it. */
  feed(chunk: string): SseEvent[] {
    let text = chunk;
    if (!this.sawBom && text.length > 0) {
      this.sawBom = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    // A CR ending a chunk ends its line now (a stream may pause there); an LF opening the next chunk
    // belongs to that same line break.
    if (this.pendingCr && text.startsWith("\n")) text = text.slice(1);
    this.pendingCr = text.endsWith("\r");
    this.parser.feed(this.pendingCr ? `${text}\n` : text);
    const done = this.out;
    this.out = [];
    return done;
  }

  /** End of stream: an event without its closing blank line is discarded, as the spec says. */
  end(): SseEvent[] {
    this.parser.reset();
    return [];
  }
}
