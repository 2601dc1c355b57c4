/**
 * A server-sent events parser (WHATWG HTML §9.2.6) fed with decoded text in arbitrary chunks.
 * Our own so the byte and event caps sit in the loop that reads the stream.
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
  private buffer = "";
  private sawBom = false;
  private pendingCr = false;
  private data: string[] = [];
  private eventType = "";
  private lastId: string | undefined;
  private retry: number | undefined;
  private idSeen = false;

  /** Feeds one chunk of text; returns the events completed by it. */
  feed(chunk: string): SseEvent[] {
    let text = chunk;
    if (!this.sawBom && text.length > 0) {
      this.sawBom = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    // A CR ending the previous chunk and an LF starting this one are one line break.
    if (this.pendingCr && text.startsWith("\n")) text = text.slice(1);
    this.pendingCr = false;
    this.buffer += text;
    const out: SseEvent[] = [];
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const ch = this.buffer[i];
      if (ch !== "\n" && ch !== "\r") continue;
      const line = this.buffer.slice(start, i);
      if (ch === "\r") {
        if (i + 1 < this.buffer.length) {
          if (this.buffer[i + 1] === "\n") i++;
        } else {
          this.pendingCr = true;
        }
      }
      start = i + 1;
      const ev = this.line(line);
      if (ev) out.push(ev);
    }
    this.buffer = this.buffer.slice(start);
    return out;
  }

  /** End of stream: an event without its closing blank line is discarded, as the spec says. */
  end(): SseEvent[] {
    this.buffer = "";
    this.data = [];
    this.eventType = "";
    return [];
  }

  /** Characters buffered in an unfinished line (a line with no end is a way to exhaust memory). */
  get pendingChars(): number {
    return this.buffer.length + this.data.reduce((n, d) => n + d.length, 0);
  }

  private line(line: string): SseEvent | null {
    if (line === "") return this.dispatch();
    if (line.startsWith(":")) return null;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    switch (field) {
      case "data":
        this.data.push(value);
        break;
      case "event":
        this.eventType = value;
        break;
      case "id":
        if (!value.includes("\0")) {
          this.lastId = value;
          this.idSeen = true;
        }
        break;
      case "retry":
        if (/^\d+$/.test(value)) this.retry = Number(value);
        break;
      default:
        break;
    }
    return null;
  }

  private dispatch(): SseEvent | null {
    const data = this.data.join("\n");
    const hadData = this.data.length > 0;
    const event = this.eventType || "message";
    this.data = [];
    this.eventType = "";
    // Priming events (an id and empty data) carry nothing to read.
    if (!hadData || data === "") return null;
    const ev: SseEvent = { event, data };
    if (this.idSeen) ev.id = this.lastId;
    if (this.retry !== undefined) ev.retry = this.retry;
    return ev;
  }
}
