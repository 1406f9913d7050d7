// The API-shaped refusal of a request that carries a browser Origin, token or not.

/** What the server answers to a request from a page at `origin`. */
export const fromOrigin = (origin: string) => ({
  error: {
    type: 'invalid_request_error',
    code: 'origin_not_allowed',
    message: `loopwire-server refuses requests from web pages (Origin: ${origin}): a page must not drive a local agent backend.`,
    param: null,
  },
});
