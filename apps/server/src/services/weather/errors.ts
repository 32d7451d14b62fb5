/** The provider could not be reached or gave no usable answer: answered 503. */
export class ProviderUnavailableError extends Error {}
