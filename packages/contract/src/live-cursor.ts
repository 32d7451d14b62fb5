// A module without zod: the console's API client (on the sign-in screens' path, where zod is not loaded) reads it.

/**
 * On a read's answer: a change id such that the read holds every change up to it (a valid `Last-Event-ID` to open
 * the stream with after that read). On a read's request: the newest change the client was told of, so a node whose
 * own feed is behind waits for it. Lower case, as Node and the Fetch API's Headers give header names.
 */
export const LIVE_CURSOR_HEADER = 'x-live-cursor';
