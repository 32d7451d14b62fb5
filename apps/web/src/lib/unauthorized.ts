type UnauthorizedHandler = () => void;

let onUnauthorized: UnauthorizedHandler = () => {
  if (typeof window !== 'undefined') window.location.hash = '#/auth/login';
};

/**
 * The router registers how to leave for the login page; every 401 ends there (lib/api-client.ts). Kept apart
 * from the API client, which the login page does not load before its first call.
 */
export function setUnauthorizedHandler(handler: UnauthorizedHandler) {
  onUnauthorized = handler;
}

export function leaveForLogin() {
  onUnauthorized();
}
