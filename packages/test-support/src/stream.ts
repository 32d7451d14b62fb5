/** A streamed answer (server-sent events) read as text while it arrives. */
export interface TextStream {
  res: Response;
  /** All the text received so far. */
  text(): string;
  /** True once the server ended the stream (or it was closed). */
  done(): boolean;
  /** Waits until `check` holds for the text received, failing if the stream ends first. */
  until(check: (text: string) => boolean): Promise<void>;
  /** Aborts the request and waits for the reading to stop. */
  close(): Promise<void>;
}

/** Fetches `url` and keeps reading its body as text until the server ends it or `close()` is called. */
export async function openTextStream(url: string, headers: Record<string, string> = {}): Promise<TextStream> {
  const abort = new AbortController();
  const res = await fetch(url, { headers, signal: abort.signal });
  let text = '';
  let done = false;
  const reading = (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body!) text += decoder.decode(chunk as Uint8Array, { stream: true });
    } catch {
      // aborted
    }
    done = true;
  })();
  return {
    res,
    text: () => text,
    done: () => done,
    async until(check) {
      while (!check(text)) {
        if (done) throw new Error(`the stream ended; received ${JSON.stringify(text)}`);
        await new Promise((r) => setTimeout(r, 5));
      }
    },
    async close() {
      abort.abort();
      await reading;
    },
  };
}
